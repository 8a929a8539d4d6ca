import https from "node:https";
import { Readable } from "node:stream";

/**
 * A fetch for an https origin whose certificate only `ca` vouches for: Node's own fetch takes
 * no CA of its own. Redirects are answered as they come (what `redirect: "manual"` gives).
 */
export function tlsFetch(ca: Buffer): { fetch: typeof fetch; close: () => void } {
  const agent = new https.Agent({ ca, keepAlive: true });
  const send = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : null;
    const headers: Record<string, string> = Object.fromEntries(request.headers);
    if (body) headers["content-length"] = String(body.length);
    return new Promise((resolve, reject) => {
      const sent = https.request(request.url, { method: request.method, headers, agent, signal: request.signal }, (answer) => {
        const answerHeaders = new Headers();
        for (let i = 0; i < answer.rawHeaders.length; i += 2) answerHeaders.append(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
        const status = answer.statusCode!;
        const empty = request.method === "HEAD" || [204, 205, 304].includes(status);
        if (empty) answer.resume();
        resolve(new Response(empty ? null : (Readable.toWeb(answer) as ReadableStream<Uint8Array>), { status, statusText: answer.statusMessage, headers: answerHeaders }));
      });
      sent.on("error", reject);
      sent.end(body ?? undefined);
    });
  };
  return { fetch: send as typeof fetch, close: () => agent.destroy() };
}
