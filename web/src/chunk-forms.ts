// The forms code's chunk (webmcp-bridge-forms.js): declarative.ts, fetched by the script build
// when the document first has a <form toolname> (see forms.ts).
import { runForm, watchForms } from "./declarative.ts";

__webmcpChunkGive({ runForm, watchForms });
