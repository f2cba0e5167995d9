// PUT of one description to many accounts in one request, timed, and whether one missing name changes nothing.
import { auth, settings } from "./run-config";
import { BIG_DOMAIN } from "./seed-plan";

export interface PutManyResult {
  /** Milliseconds of each sequential PUT. */
  times: number[];
  /** Whether a PUT naming one missing account left the others untouched. */
  atomic: boolean;
}

export async function putMany(port: number, names: string[]): Promise<PutManyResult> {
  const url = (list: string[]) => `http://127.0.0.1:${port}/api/v1/emails/${BIG_DOMAIN}/${list.join(",")}`;
  const put = (list: string[], description: string) =>
    fetch(url(list), {
      method: "PUT",
      headers: { ...auth(BIG_DOMAIN), "content-type": "application/json" },
      body: JSON.stringify({ description }),
    });
  const times: number[] = [];
  for (let i = 0; i < settings.putManyRuns; i++) {
    const started = performance.now();
    const res = await put(names, `Zmiana zbiorcza ${i}`);
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 204) throw new Error(`PUT of ${names.length} names: ${res.status}`);
  }
  // Atomic: one missing name among 1,000 must leave the other 999 untouched.
  const description = async () =>
    ((await (await fetch(url([names[0]!]), { headers: auth(BIG_DOMAIN) })).json()) as { description: string })
      .description;
  const before = await description();
  const failed = await put([...names.slice(0, -1), "nie-ma-takiego-konta"], "Nie powinno się zapisać");
  await failed.arrayBuffer();
  const after = await description();
  const atomic = failed.status >= 400 && before === after && after !== "Nie powinno się zapisać";
  return { times, atomic };
}
