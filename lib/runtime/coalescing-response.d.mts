import type { ServerResponse } from "node:http";

/** Node's ServerResponse whose flushHeaders() waits for the end of the tick (see coalescing-response.mjs). */
export declare const CoalescingResponse: typeof ServerResponse;
