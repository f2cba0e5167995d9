import "server-only";
// A panel endpoint that only answers GET: its route file re-exports these (`export * from`), so every other method
// gets the 405.1 body from one place.
export {
  panelMethodNotAllowed as POST,
  panelMethodNotAllowed as PUT,
  panelMethodNotAllowed as DELETE,
  panelMethodNotAllowed as PATCH,
} from "./panel-fallback";
