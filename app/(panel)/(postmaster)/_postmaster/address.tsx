// An address or name that may break only after "@" and the local part's dots on a narrow screen, never mid-word
// nor within the domain (unless one part alone is wider than the line).
import { Fragment } from "react";

export function Address({ text }: { text: string }) {
  const at = text.lastIndexOf("@");
  const parts =
    at < 0 ? text.split(/(?<=\.)/) : [...text.slice(0, at + 1).split(/(?<=[@.])/), text.slice(at + 1)].filter(Boolean);
  return (
    <span className="wrap-anywhere">
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {p}
        </Fragment>
      ))}
    </span>
  );
}
