// Imported first by server/main.ts, so that it runs before the server's other modules: every
// file and folder the server creates from then on (PGlite's, images, buy-back photos, secrets,
// the control socket) is its OS user's alone. The packages imported before it write nothing.
import { usePrivateUmask } from "~/lib/private-files.server";

usePrivateUmask();
