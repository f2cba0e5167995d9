// An address or name that may break only after "@" and the local part's dots on a narrow screen, never mid-word
// nor within the domain (unless one part alone is wider than the line). overflow-wrap: break-word, not anywhere:
// "anywhere" lets a table column shrink to one character, and the domain then breaks wherever the column ends.
import { Fragment } from "react";

export function Address({ text }: { text: string }) {
  const at = text.lastIndexOf("@");
  const parts =
    at < 0 ? text.split(/(?<=\.)/) : [...text.slice(0, at + 1).split(/(?<=[@.])/), text.slice(at + 1)].filter(Boolean);
  return (
    <span className="break-words">
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {p}
        </Fragment>
      ))}
    </span>
  );
}
