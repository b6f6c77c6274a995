// How a confirmation shows what the page chose: the origin (from the browser) comes first and
// apart; the page's title and the tool's name are page text, shown quoted and short, with the
// characters that could make them read as something else removed.

/** The longest page title a question shows, in characters. */
export const MAX_TITLE_CHARS = 80;

/** How long after the questions under the pointer changed a click on them is not taken, in ms:
 * as browsers' own permission prompts do, so that a click meant for one question never lands
 * on the one that moved into its place. */
export const CLICK_DELAY_MS = 750;

// Control and format characters (the bidi overrides and isolates, zero-width joiners, the
// line and paragraph separators): none of them is something a person reads.
const unseen = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;

/** pageText is s with control and format characters removed, runs of white space made one
 * space, and cut to max characters with "…". */
export function pageText(s: string, max: number): string {
  const chars = [...s.replace(unseen, "").replace(/\s+/g, " ").trim()];
  return chars.length > max ? chars.slice(0, max).join("") + "…" : chars.join("");
}

/** quotedTitle is a page's title as a question shows it: quoted and short, or "" for none. */
export function quotedTitle(title: string): string {
  const t = pageText(title, MAX_TITLE_CHARS);
  return t ? `“${t}”` : "";
}
