// An address or name that may break only after "@" and dots on a narrow screen, never mid-word (unless one part
// alone is wider than the line).
import { Fragment } from "react";

export function Address({ text }: { text: string }) {
  const parts = text.split(/(?<=[@.])/);
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
