// The app's server: Express with compression, the build's client files, then Astro's pages.
import compression from "compression";
import express from "express";
import { handler } from "./dist/server/entry.mjs";

const app = express();
app.use(compression());
app.use(express.static("dist/client/"));
app.use(handler);
app.listen(Number(process.env.PORT), process.env.HOST);
