// JSON text for answers whose list rows must keep their order. JavaScript objects enumerate all-digit keys first,
// and an all-digit name is a valid account name, so JSON.stringify would move such rows to the front of
// result_data; contract §6 wants them in the requested order. A list's result_data carries its own key order.
const ROW_ORDER = Symbol("rowOrder");

type Ordered = Record<string, unknown> & { [ROW_ORDER]?: readonly string[] };

/** A prototype-less record of `entries` that remembers their order (an account named "__proto__" is a key too). */
export function orderedRecord(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const data = Object.create(null) as Ordered;
  const order: string[] = [];
  for (const [key, value] of entries) {
    data[key] = value;
    order.push(key);
  }
  Object.defineProperty(data, ROW_ORDER, { value: order, enumerable: false });
  return data;
}

/** JSON.stringify, except that a member `result_data` made by orderedRecord is written in its own order. */
export function toJson(value: unknown): string {
  const data = (value as { result_data?: Ordered } | null)?.result_data;
  const order = data?.[ROW_ORDER];
  if (!order) return JSON.stringify(value);
  const members = Object.entries(value as object).map(([key, member]) => {
    const text =
      key === "result_data"
        ? `{${order.map((k) => `${JSON.stringify(k)}:${JSON.stringify(data[k])}`).join(",")}}`
        : JSON.stringify(member);
    return `${JSON.stringify(key)}:${text}`;
  });
  return `{${members.join(",")}}`;
}
