// Many strings as UTF-16 units in one array: what the held tables build from their accounts' texts (search keys,
// names, descriptions; held-search.ts), and JoinedTexts, which keeps names and descriptions after the build. No JS
// object per string for the garbage collector to trace, and built one string at a time, so a build does not hold
// an array of 100,000 strings at its peak either.

/** Units a String.fromCharCode call takes at most (arguments are bounded). */
const CHUNK = 4096;

export class TextList {
  constructor(
    /** Text i is units[starts[i] .. starts[i + 1]). */
    readonly units: Uint16Array,
    readonly starts: Int32Array,
  ) {}

  static of(texts: Iterable<string>): TextList {
    const builder = new TextListBuilder();
    for (const text of texts) builder.add(text);
    return builder.finish();
  }

  get length(): number {
    return this.starts.length - 1;
  }

  lengthOf(i: number): number {
    return this.starts[i + 1]! - this.starts[i]!;
  }

  /**
   * Text i, copied out of the units. No request path reads texts this way any more (held pages slice JoinedTexts);
   * text-list.test.ts reads the units back with it.
   */
  text(i: number): string {
    // apply, not spread: spreading a typed array iterates it, three times slower; in chunks, as a call takes a
    // bounded number of arguments.
    const end = this.starts[i + 1]!;
    let text = "";
    for (let at = this.starts[i]!; at < end; at += CHUNK) {
      text += String.fromCharCode.apply(null, this.units.subarray(at, Math.min(end, at + CHUNK)) as unknown as number[]);
    }
    return text;
  }
}

/**
 * Texts kept as one string: text(i) is a slice of it, which V8 makes without copying the units. A held page reads
 * its rows' names and descriptions so (held-order.ts): 100 String.fromCharCode calls took about 40 µs a page.
 */
export class JoinedTexts {
  constructor(
    private readonly joined: string,
    private readonly starts: Int32Array,
  ) {}

  text(i: number): string {
    return this.joined.slice(this.starts[i], this.starts[i + 1]);
  }
}

/** Texts joined into one string a group at a time, so that no array of every text is held at once. */
const JOIN_GROUP = 1024;

export class TextListBuilder {
  private units = new Uint16Array(1 << 16);
  private used = 0;
  private starts = new Int32Array(1 << 12);
  private count = 0;
  private readonly groups: string[] = [];
  private group: string[] = [];

  /** `keepsJoined`: keep the texts as one string as well (joined()). */
  constructor(private readonly keepsJoined = false) {}

  add(text: string): void {
    if (this.keepsJoined) {
      this.group.push(text);
      if (this.group.length === JOIN_GROUP) this.endGroup();
    }
    if (this.used + text.length > this.units.length) {
      const grown = new Uint16Array(Math.max(this.units.length * 2, this.used + text.length));
      grown.set(this.units.subarray(0, this.used));
      this.units = grown;
    }
    if (this.count + 2 > this.starts.length) {
      const grown = new Int32Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    for (let i = 0; i < text.length; i++) this.units[this.used + i] = text.charCodeAt(i);
    this.used += text.length;
    this.starts[++this.count] = this.used;
  }

  finish(): TextList {
    return new TextList(this.units.slice(0, this.used), this.starts.slice(0, this.count + 1));
  }

  /** The texts added so far as JoinedTexts; only for a builder made with `keepsJoined`. */
  joined(): JoinedTexts {
    if (!this.keepsJoined) throw new Error("this TextListBuilder does not keep its texts joined");
    this.endGroup();
    return new JoinedTexts(this.groups.join(""), this.starts.slice(0, this.count + 1));
  }

  private endGroup(): void {
    if (this.group.length > 0) this.groups.push(this.group.join(""));
    this.group = [];
  }
}
