import busboy from "busboy";

/**
 * A multipart post (a form with files) read as it arrives, by busboy: each file is kept only up
 * to its own ceiling, and reading stops at the first limit passed (the rest of the body is never
 * kept: closeAfterUnreadBody in server/request-guards.ts drops it and closes the connection after
 * the answer). `Response.formData()` instead
 * buffered the whole body, then copied it into its parts, before any limit could be checked.
 */

export type MultipartLimits = {
  /** The whole body, files and fields together (the declared length is trusted only to refuse early). */
  totalBytes: number;
  /** One file. */
  fileBytes: number;
  /** Files in all (an empty file input counts: it sends one nameless, empty part). */
  files: number;
  /** Text fields in all (default 50). */
  fields?: number;
  /** One text field (default 1 MB). */
  fieldBytes?: number;
};

export type MultipartFile = { field: string; name: string; type: string; bytes: Buffer };

export type MultipartForm = { fields: [string, string][]; files: MultipartFile[] };

/** Why a post was not read to its end; `fields` holds the texts read before (to refill the form). */
export type MultipartRefusal =
  | { refused: "too-large" | "too-many-files" | "too-many-fields" | "unreadable"; fields: [string, string][] }
  | { refused: "file-too-large"; file: string; fields: [string, string][] };

const MB = 1024 * 1024;

/** PostgreSQL cannot hold a NUL in text, and no keyboard types one (request-input.server.ts). */
const withoutNul = (text: string) => (text.includes("\0") ? text.replaceAll("\0", "") : text);

export function isMultipart(request: Request): boolean {
  return /^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "");
}

export async function readMultipart(request: Request, limits: MultipartLimits): Promise<MultipartForm | MultipartRefusal> {
  const fields: [string, string][] = [];
  if (!isMultipart(request)) return { refused: "unreadable", fields };
  if (Number(request.headers.get("content-length") ?? 0) > limits.totalBytes) return { refused: "too-large", fields };
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      defParamCharset: "utf8", // file names as browsers send them
      limits: { fileSize: limits.fileBytes, files: limits.files, fields: limits.fields ?? 50, fieldSize: limits.fieldBytes ?? MB, parts: limits.files + (limits.fields ?? 50) },
    });
  } catch {
    return { refused: "unreadable", fields };
  }

  const files: MultipartFile[] = [];
  // In an object: set by the parser's events, which TypeScript's narrowing does not follow.
  const state: { refusal?: MultipartRefusal } = {};
  const refuse = (value: MultipartRefusal) => void (state.refusal ??= value);
  parser.on("field", (name, value, info) => {
    if (info.nameTruncated || info.valueTruncated) refuse({ refused: "too-large", fields });
    else fields.push([withoutNul(name), withoutNul(value)]);
  });
  parser.on("file", (field, stream, info) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const name = withoutNul(info.filename ?? "");
    stream.on("data", (chunk: Buffer) => {
      if (state.refusal) return; // drained, not kept
      chunks.push(chunk);
      size += chunk.length;
    });
    stream.on("limit", () => {
      chunks.length = 0;
      refuse({ refused: "file-too-large", file: name, fields });
    });
    // A post cut short: the part's stream fails as well as the parser.
    stream.on("error", () => refuse({ refused: "unreadable", fields }));
    stream.on("end", () => {
      if (!state.refusal) files.push({ field: withoutNul(field), name, type: info.mimeType, bytes: Buffer.concat(chunks, size) });
    });
  });
  parser.on("filesLimit", () => refuse({ refused: "too-many-files", fields }));
  parser.on("fieldsLimit", () => refuse({ refused: "too-many-fields", fields }));
  parser.on("partsLimit", () => refuse({ refused: "too-many-fields", fields }));
  const closed = new Promise<void>((resolve) => {
    parser.on("close", resolve);
    parser.on("error", () => {
      refuse({ refused: "unreadable", fields });
      resolve();
    });
  });

  const reader = request.body?.getReader();
  let total = 0;
  try {
    while (reader && !state.refusal) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limits.totalBytes) refuse({ refused: "too-large", fields });
      else if (!parser.write(value)) await new Promise<void>((resolve) => parser.once("drain", resolve).once("close", resolve).once("error", resolve));
    }
  } catch {
    refuse({ refused: "unreadable", fields }); // the client went away mid-post
  }
  if (state.refusal) {
    await reader?.cancel().catch(() => {});
    parser.destroy();
    files.length = 0;
    return state.refusal;
  }
  parser.end();
  await closed;
  if (state.refusal) return state.refusal;
  return { fields, files };
}
