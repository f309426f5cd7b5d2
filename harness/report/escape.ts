// Escaping for the rendered formats. Everything a target sent back is untrusted text: it is
// escaped where it is written, never inserted as markup.

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML[c]!);
}

// XML 1.0 allows tab, LF and CR among the control characters, and no lone surrogate, not even
// as a character reference: the others are written as visible `\uXXXX` text instead.
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text for XML element content and quoted attribute values. */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/[&<>"']/g, (c) => (c === "'" ? '&apos;' : HTML[c]!));
}

/** An XML attribute value: newlines and tabs as character references, so parsers keep them. */
export function escapeXmlAttribute(text: string): string {
  return escapeXml(text).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
