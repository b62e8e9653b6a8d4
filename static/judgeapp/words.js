/* judgeapp conclusions in words: a computed result's fields as sentences (guides/result_words.py does
   the same on the server, whose words are used when it sent them) and an IPG citation by its parts
   (Definition, Penalty, Examples, Philosophy, Additional Remedy, Upgrade, Downgrade) as labelled blocks — never raw
   JSON or one run of text. window.JudgeWords = { describe(value), label(name), shownLines(node, result,
   serverNode), citationItem(citation) }. */
(function () {
  "use strict";

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else if (key === "className") node.className = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  function resultField(result, name) {
    var value = result;
    name.split(".").forEach(function (part) { value = value && typeof value === "object" ? value[part] : undefined; });
    return value;
  }

  /* A computed value in words (guides/result_words.py does the same on the server): never raw JSON. */
  function scalar(value) {
    if (value === true) return "yes";
    if (value === false) return "no";
    if (value === null || value === undefined) return "none";
    if (typeof value === "number" && !Number.isInteger(value)) return String(Math.round(value * 1000) / 1000);
    // A computed sentence counts "performed 1 times": said as "performed once" (as result_words.scalar does).
    return String(value).replace(/\s+/g, " ").trim().replace(/(^|[^\w,.])1 times\b/g, "$1once");
  }
  function words(key) { return String(key).replace(/_/g, " ").trim(); }
  function isEmpty(value) {
    return value === null || value === undefined || value === "" || (Array.isArray(value) && !value.length) ||
      (typeof value === "object" && !Array.isArray(value) && !Object.keys(value).length);
  }
  function phrase(value) {
    if (Array.isArray(value)) return value.map(phrase).join(", ");
    if (value && typeof value === "object") return inline(value);
    return scalar(value);
  }
  function inline(mapping) {
    return Object.keys(mapping).map(function (key) {
      var value = mapping[key];
      if (typeof value === "number") return scalar(value) + " " + words(key);
      if (value && typeof value === "object" && !Array.isArray(value)) return words(key) + " (" + inline(value) + ")";
      return isEmpty(value) ? "" : words(key) + ": " + phrase(value);
    }).filter(Boolean).join(", ");
  }
  function label(name) { var w = words(name.split(".").pop()); return w.charAt(0).toUpperCase() + w.slice(1); }
  function describe(value) {
    if (isEmpty(value)) return [];
    if (Array.isArray(value)) return value.map(function (v) { return Array.isArray(v) ? v.map(phrase).join("; ") : phrase(v); }).filter(Boolean);
    if (typeof value === "object") {
      return Object.keys(value).map(function (key) {
        var v = value[key];
        if (isEmpty(v)) return "";
        if (Array.isArray(v)) return label(key) + ": " + v.map(phrase).join("; ");
        return label(key) + ": " + (typeof v === "object" ? inline(v) : scalar(v));
      }).filter(Boolean);
    }
    return [scalar(value)];
  }
  function shownLines(node, result, serverNode) {
    if (serverNode && serverNode.id === node.id && Array.isArray(serverNode.shown_text)) return serverNode.shown_text;
    return (node.show_result || []).map(function (name) {
      return { name: name, label: label(name), lines: result ? describe(resultField(result, name)) : [] };
    }).filter(function (item) { return item.lines.length; });
  }

  function citationItem(c) {
    var item = el("li");
    if (c.number) {
      // The server's label ("CR 729.4", "JAR: A player accidentally draws ..."): the JAR's internal numbers are never shown.
      var label = c.label || (c.doc === "jar" ? "JAR: " + (c.title || "") : c.doc.toUpperCase() + " " + c.number);
      item.appendChild(el("a", { href: "/rules/" + c.doc + "/" + encodeURIComponent(c.number) + "/", text: label }));
      if (c.title && c.doc !== "jar") item.appendChild(document.createTextNode(" — " + c.title));
      if (c.parts && c.parts.length) {
        // An IPG section by its parts: Definition, Penalty, Examples, Philosophy, Additional Remedy, Upgrade, Downgrade.
        var parts = el("dl", { className: "ipg-parts" });
        c.parts.forEach(function (part) {
          var block = el("div", { className: "ipg-part", "data-part": part.label }, [el("dt", { text: part.label })]);
          var dd = el("dd");
          String(part.text).split(/\n{2,}/).forEach(function (para, k) {
            if (k) dd.appendChild(el("br"));
            dd.appendChild(document.createTextNode(para));
          });
          block.appendChild(dd);
          parts.appendChild(block);
        });
        item.appendChild(parts);
      } else {
        item.appendChild(el("br"));
        var text = (c.text || "").split(/\s+/);
        item.appendChild(el("span", { className: "muted", text: text.slice(0, 60).join(" ") + (text.length > 60 ? " …" : "") }));
      }
    } else {
      item.appendChild(el("span", { className: "muted", text: c.doc.toUpperCase() + ": " + (c.text || "") }));
    }
    return item;
  }

  window.JudgeWords = { describe: describe, label: label, shownLines: shownLines, citationItem: citationItem };
})();
