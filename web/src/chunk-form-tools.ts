// The forms code's chunk (webmcp-bridge-forms.js): form-tools.ts, fetched by the script build
// when the document first has a <form toolname> (see form-tools-loader.ts).
import { runForm, watchForms } from "./form-tools.ts";

__webmcpChunkGive({ runForm, watchForms });
