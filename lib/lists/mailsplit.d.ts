// The part of mailsplit's API the list service uses (the package ships no types).
declare module "mailsplit" {
  import type { Transform } from "node:stream";
  export class Headers {
    constructor(headers: Buffer | string);
    get(key: string): string[];
    getFirst(key: string): string;
    hasHeader(key: string): boolean;
    add(key: string, value: string, index?: number): void;
    remove(key: string): void;
    update(key: string, value: string): void;
    build(lineEnd?: string): Buffer;
  }
  export interface MimeChunk {
    type: "node" | "data" | "body";
    root?: boolean;
    headers: Headers;
    value?: Buffer;
  }
  export class Splitter extends Transform {
    constructor(options?: { ignoreEmbedded?: boolean; maxHeadSize?: number });
  }
  export class Joiner extends Transform {
    constructor();
  }
}
