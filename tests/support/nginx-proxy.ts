import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** Debian's nginx (`apt-get install nginx`; .ci/run installs it). */
export const NGINX_BIN = "/usr/sbin/nginx";
/** The shipped configuration: the test runs this file, not a copy of it. */
export const NGINX_TEMPLATE = path.resolve(import.meta.dirname, "../../deploy/nginx/comptoir.conf.template");

export type ProxyOptions = {
  httpsPort: number;
  httpPort: number;
  /** The two instances, host:port. */
  apps: [string, string];
  /** The S3-compatible store, host:port, and the images' bucket. */
  s3: string;
  bucket: string;
};

export type RunningProxy = {
  /** https://127.0.0.1:port, the shop's PUBLIC_URL. */
  url: string;
  /** http://127.0.0.1:port, the plain HTTP server (it redirects). */
  httpUrl: string;
  /** The certificate nginx presents (self-signed for 127.0.0.1): the only CA a client needs. */
  ca: Buffer;
  /** nginx's error log so far. */
  errorLog: () => string;
  stop: () => Promise<void>;
};

/** Why the proxy cannot run here (nginx, or openssl for its certificate, missing), or null. */
export function missingProxyTools(): string | null {
  if (!fs.existsSync(NGINX_BIN)) return `nginx is not installed (${NGINX_BIN}; apt-get install nginx)`;
  if (spawnSync("openssl", ["version"]).status !== 0) return "openssl is not installed (apt-get install openssl)";
  return null;
}

/** A port free on the loopback now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Fills the ${COMPTOIR_*} placeholders as the nginx image's envsubst does. A placeholder with
 * no value is an error here (envsubst would leave nginx a broken line).
 */
export function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\$\{(COMPTOIR_\w+)\}/g, (_whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${NGINX_TEMPLATE}: no value for \${${name}}`);
    return value;
  });
}

/**
 * nginx in front of two instances, from the shipped template, in a temporary prefix: its own
 * configuration, logs, temporary files and a self-signed certificate (openssl). Resolves once
 * it accepts TLS connections.
 */
export async function startNginxProxy(options: ProxyOptions): Promise<RunningProxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-nginx-"));
  const file = (name: string) => path.join(dir, name);
  const url = `https://127.0.0.1:${options.httpsPort}`;
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", file("key.pem"), "-out", file("cert.pem"),
  ], { stdio: ["ignore", "pipe", "pipe"] });
  const site = renderTemplate(fs.readFileSync(NGINX_TEMPLATE, "utf8"), {
    COMPTOIR_SERVER_NAME: "127.0.0.1",
    COMPTOIR_PUBLIC_URL: url,
    COMPTOIR_LISTEN_HTTPS: `127.0.0.1:${options.httpsPort}`,
    COMPTOIR_LISTEN_HTTP: `127.0.0.1:${options.httpPort}`,
    COMPTOIR_TLS_CERT: file("cert.pem"),
    COMPTOIR_TLS_KEY: file("key.pem"),
    COMPTOIR_APP_1: options.apps[0],
    COMPTOIR_APP_2: options.apps[1],
    COMPTOIR_S3: options.s3,
    COMPTOIR_S3_BUCKET: options.bucket,
  });
  fs.writeFileSync(file("comptoir.conf"), site);
  for (const temp of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) fs.mkdirSync(file(`tmp/${temp}`), { recursive: true });
  // What the nginx image's own nginx.conf gives the site file, with every path in the prefix.
  fs.writeFileSync(
    file("nginx.conf"),
    [
      // As root, nginx would run its worker as nobody, who cannot write the temporary files here.
      process.getuid?.() === 0 ? "user root;" : "",
      "worker_processes 1;",
      `error_log ${file("error.log")} info;`,
      "events { worker_connections 512; }",
      "http {",
      `  access_log ${file("access.log")};`,
      ...["body", "proxy", "fastcgi", "uwsgi", "scgi"].map((temp) => `  ${temp === "body" ? "client_body" : temp}_temp_path ${file(`tmp/${temp}`)};`),
      // The test's only addition: which instance answered. Inherited by every location because
      // the site file sets no add_header of its own.
      "  add_header X-Test-Upstream $upstream_addr always;",
      `  include ${file("comptoir.conf")};`,
      "}",
      "",
    ].join("\n"),
  );
  const child = spawn(NGINX_BIN, ["-p", dir, "-c", file("nginx.conf"), "-g", `daemon off; pid ${file("nginx.pid")};`], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const errorLog = () => (fs.existsSync(file("error.log")) ? fs.readFileSync(file("error.log"), "utf8") : "");
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await untilListening(child, options.httpsPort, () => `${output}${errorLog()}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, httpUrl: `http://127.0.0.1:${options.httpPort}`, ca: fs.readFileSync(file("cert.pem")), errorLog, stop };
}

/** Resolves when the port accepts connections; rejects if nginx exits first or after 10 s. */
async function untilListening(child: ChildProcess, port: number, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${log()}`);
    if (await accepts(port)) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port} within 10 s:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
