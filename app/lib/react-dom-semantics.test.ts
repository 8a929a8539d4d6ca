import { renderToString } from "preact-render-to-string";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import "./react-dom-semantics";

/** What the server writes for an element, as React DOM would (decision 022). */
const html = (type: string, props: Record<string, unknown>) => renderToString(createElement(type, props) as never);

describe("React DOM's meaning of props, on Preact", () => {
  it("writes spellcheck, draggable and contenteditable as the words true and false", () => {
    expect(html("input", { spellCheck: false })).toBe('<input spellcheck="false"/>');
    expect(html("div", { draggable: true, contentEditable: false })).toBe('<div draggable="true" contenteditable="false"></div>');
  });

  it("leaves out the props React keeps to itself", () => {
    expect(html("html", { suppressHydrationWarning: true, lang: "fr" })).toBe('<html lang="fr"></html>');
    expect(html("link", { rel: "stylesheet", href: "/a.css", precedence: "default" })).toBe('<link rel="stylesheet" href="/a.css"/>');
  });

  it("selects a select's defaultValue through its options, with no defaultvalue attribute", () => {
    const select = createElement("select", { name: "s", defaultValue: "b" }, createElement("option", { value: "a" }, "A"), createElement("option", { value: "b" }, "B"));
    expect(select.props).not.toHaveProperty("defaultValue");
    expect(renderToString(select as never)).toBe('<select name="s"><option value="a">A</option><option value="b" selected>B</option></select>');
  });

  it("keeps autoFocus as the attribute in the server's page", () => {
    expect(html("input", { autoFocus: true })).toContain("autofocus");
  });
});
