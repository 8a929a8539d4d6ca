import { describe, expect, it } from "vitest";
import { parseCatalogChange } from "./catalog-change";

describe("parseCatalogChange", () => {
  it("reads the trigger's payloads", () => {
    expect(parseCatalogChange('{"op":"update","id":12}')).toEqual({ op: "update", id: 12 });
    expect(parseCatalogChange('{"op":"delete","id":3}')).toEqual({ op: "delete", id: 3 });
    expect(parseCatalogChange('{"op":"site","id":null}')).toEqual({ op: "site" });
    expect(parseCatalogChange('{"op":"update","id":12,"stock":0}')).toEqual({ op: "update", id: 12, stock: 0 });
  });

  it("rejects anything else", () => {
    expect(parseCatalogChange("not json")).toBeNull();
    expect(parseCatalogChange('{"op":"update"}')).toBeNull();
    expect(parseCatalogChange('{"op":"truncate","id":1}')).toBeNull();
    expect(parseCatalogChange("null")).toBeNull();
    // A stock that is not a whole number is no stock-only change: the change stays whole.
    expect(parseCatalogChange('{"op":"update","id":12,"stock":"3"}')).toEqual({ op: "update", id: 12 });
    expect(parseCatalogChange('{"op":"insert","id":12.5}')).toBeNull();
  });
});
