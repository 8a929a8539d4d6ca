import { describe, expect, it } from "vitest";
import {
  IMAGE_UPLOAD_ERRORS,
  MAX_ADDITIONAL_IMAGES,
  MAX_IMAGE_BYTES,
  checkImageFile,
  imageKeyName,
  imageKeyTimestamp,
  sniffImageType,
} from "./image-upload";

const bytes = (...values: Array<number | string>) =>
  new Uint8Array(values.flatMap((v) => (typeof v === "string" ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe("sniffImageType", () => {
  it("recognises JPEG, PNG and WebP by their first bytes", () => {
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))).toBe("jpeg");
    expect(sniffImageType(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d))).toBe("png");
    expect(sniffImageType(bytes("RIFF", 0x24, 0, 0, 0, "WEBPVP8 "))).toBe("webp");
  });

  it("refuses anything else, however it is named", () => {
    expect(sniffImageType(bytes("hello, I am a text file.png"))).toBeNull();
    expect(sniffImageType(bytes("GIF89a", 1, 0, 1, 0))).toBeNull();
    expect(sniffImageType(bytes("RIFF", 0x24, 0, 0, 0, "WAVEfmt "))).toBeNull(); // RIFF but audio
    expect(sniffImageType(bytes("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
  });

  it("refuses headers cut short", () => {
    expect(sniffImageType(bytes())).toBeNull();
    expect(sniffImageType(bytes(0xff, 0xd8))).toBeNull();
    expect(sniffImageType(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a))).toBeNull();
    expect(sniffImageType(bytes("RIFF", 0x24, 0, 0, 0, "WEB"))).toBeNull();
  });
});

describe("checkImageFile", () => {
  const file = (name: string, type: string, size = 1000) => ({ name, type, size });

  it("accepts jpg, jpeg, png and webp up to 10 MB", () => {
    expect(checkImageFile(file("carte.jpg", "image/jpeg"))).toBeNull();
    expect(checkImageFile(file("Carte.JPEG", "image/jpeg"))).toBeNull();
    expect(checkImageFile(file("display.png", "image/png"))).toBeNull();
    expect(checkImageFile(file("booster.webp", "image/webp", MAX_IMAGE_BYTES))).toBeNull();
    expect(checkImageFile(file("booster.webp", ""))).toBeNull();
  });

  it("gives the format message for other extensions or types", () => {
    expect(checkImageFile(file("carte.gif", "image/gif"))).toBe(IMAGE_UPLOAD_ERRORS.unsupported);
    expect(checkImageFile(file("carte.png", "application/pdf"))).toBe(IMAGE_UPLOAD_ERRORS.unsupported);
    expect(checkImageFile(file("carte", "image/png"))).toBe(IMAGE_UPLOAD_ERRORS.unsupported);
    expect(checkImageFile(file("video.mp4", "video/mp4", 50 * 1024 * 1024))).toBe(IMAGE_UPLOAD_ERRORS.unsupported);
  });

  it("gives the size message above 10 MB", () => {
    expect(checkImageFile(file("scan.png", "image/png", MAX_IMAGE_BYTES + 1))).toBe(IMAGE_UPLOAD_ERRORS.tooLarge);
  });
});

describe("messages and limits", () => {
  it("uses the wording of the specification", () => {
    expect(IMAGE_UPLOAD_ERRORS.unsupported).toBe("Format d'image non supporté. Utilisez JPG, PNG ou WebP.");
    expect(IMAGE_UPLOAD_ERRORS.tooLarge).toBe("L'image est trop volumineuse. La taille maximale est de 10MB.");
    expect(IMAGE_UPLOAD_ERRORS.unreadable).toMatch(/illisible/);
    expect(MAX_IMAGE_BYTES).toBe(10_485_760);
    expect(MAX_ADDITIONAL_IMAGES).toBe(4);
  });
});

describe("image keys", () => {
  const now = new Date("2026-03-14T10:00:00.000Z");

  it("names an upload pokemon_<ms timestamp>_<random>", () => {
    expect(imageKeyName(now, "k3x9a0")).toBe(`pokemon_${now.getTime()}_k3x9a0`);
  });

  it("refuses a random part that is not lowercase alphanumerics", () => {
    expect(() => imageKeyName(now, "")).toThrow();
    expect(() => imageKeyName(now, "../etc")).toThrow();
    expect(() => imageKeyName(now, "ABC")).toThrow();
  });

  it("reads the upload time back from an uploaded key only", () => {
    expect(imageKeyTimestamp(imageKeyName(now, "ab12"))).toBe(now.getTime());
    expect(imageKeyTimestamp("seed/display-ev")).toBeNull();
    expect(imageKeyTimestamp("pokemon_123_ab12-320.webp")).toBeNull();
    expect(imageKeyTimestamp("pokemon_abc_ab12")).toBeNull();
    expect(imageKeyTimestamp("x/pokemon_123_ab12")).toBeNull();
  });
});
