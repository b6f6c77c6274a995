// The forms code's chunk (webmcp-bridge-forms.js): form-tools.ts, fetched by the script build
// when the document first has a <form toolname> (see forms.ts).
import { runForm, watchForms } from "./form-tools.ts";

__webmcpChunkGive({ runForm, watchForms });
