// The schema checker's chunk (webmcp-bridge-schema.js): the keyword table and schema-check.ts,
// fetched by the script build with the first tool whose inputSchema is a schema (see flow.ts).
import { checkSchema, NEEDS_PATTERNS } from "./schema-check.ts";

__webmcpChunkGive({ checkSchema, NEEDS_PATTERNS });
