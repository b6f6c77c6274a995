// zipstable.mjs makes a zip archive the same bytes on every run, in place: its entries in the
// order of their names, each dated 2000-01-01 00:00 (the time make dist gives the files of its
// other archives). `mcpb pack` dates each entry with the time it runs (fflate's zipSync with
// mtime: new Date(); it reads no SOURCE_DATE_EPOCH); `web-ext build` too (zip-dir gives JSZip
// no date), and it adds the files in the order their reads finish. The entries' records are
// moved whole (headers, data, CRCs and sizes as the tool wrote them); only the DOS time and date
// fields and the central directory's offsets change. An archive with ZIP64 records, data
// descriptors or extra fields (where other timestamps could hide) is refused, not half fixed.
//
//	node tools/release/zipstable.mjs out/dist/webmcp-bridge_1.2.3.mcpb
import { readFileSync, writeFileSync } from "node:fs";

const DOS_TIME = 0; // 00:00:00
const DOS_DATE = ((2000 - 1980) << 9) | (1 << 5) | 1; // 2000-01-01
const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;

/** stable returns the zip in buf with its entries sorted by name and dated alike, or throws saying why not. */
export function stable(buf) {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || buf.length - eocd < 22) throw new Error("no end of central directory record: not a zip");
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || at === 0xffffffff) throw new Error("a ZIP64 archive: not handled");
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(at) !== CENTRAL) throw new Error(`central directory entry ${i}: bad signature`);
    const nameLen = buf.readUInt16LE(at + 28);
    const centralLen = 46 + nameLen + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    const name = buf.toString("utf8", at + 46, at + 46 + nameLen);
    const local = buf.readUInt32LE(at + 42);
    if (buf.readUInt32LE(local) !== LOCAL) throw new Error(`${name}: bad local header signature`);
    if (buf.readUInt16LE(at + 30) !== 0 || buf.readUInt16LE(local + 28) !== 0) throw new Error(`${name}: has extra fields`);
    if (buf.readUInt16LE(local + 6) & 0x8) throw new Error(`${name}: has a data descriptor`);
    const localLen = 30 + buf.readUInt16LE(local + 26) + buf.readUInt32LE(at + 20);
    entries.push({ name, central: Buffer.from(buf.subarray(at, at + centralLen)), local: Buffer.from(buf.subarray(local, local + localLen)) });
    at += centralLen;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const locals = [];
  let offset = 0;
  for (const e of entries) {
    for (const [rec, timeAt] of [[e.central, 12], [e.local, 10]]) {
      rec.writeUInt16LE(DOS_TIME, timeAt);
      rec.writeUInt16LE(DOS_DATE, timeAt + 2);
    }
    e.central.writeUInt32LE(offset, 42);
    locals.push(e.local);
    offset += e.local.length;
  }
  const central = Buffer.concat(entries.map((e) => e.central));
  const end = Buffer.from(buf.subarray(eocd));
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, central, end]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file] = process.argv.slice(2);
  if (!file) throw new Error("usage: node zipstable.mjs ARCHIVE.zip");
  writeFileSync(file, stable(readFileSync(file)));
  console.log(`${file}: entries in name order, dated 2000-01-01 00:00`);
}
