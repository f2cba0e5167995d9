import { describe, expect, it } from "vitest";
import { errorCatalog } from "@/lib/errors/catalog";
import { panelErrors } from "@/lib/errors/panel-errors";
import { PanelApiError } from "./api";
import { catalogText, errorBodyText, failureText } from "./error-text";

describe("errorBodyText", () => {
  it("keeps the API's Polish message in Polish", () => {
    const { code, message } = errorCatalog.invalidCapacity;
    expect(errorBodyText({ code, message }, "pl")).toBe(message);
  });

  it("finds the English text by code AND message where one code has several entries", () => {
    const { badCredentials, tooManyFailures, forbidden, restrictedField } = errorCatalog;
    expect(badCredentials.code).toBe(tooManyFailures.code);
    expect(forbidden.code).toBe(restrictedField.code);
    for (const e of [badCredentials, tooManyFailures, forbidden, restrictedField]) {
      expect(errorBodyText({ code: e.code, message: e.message }, "en")).toBe(e.messageEn);
    }
  });

  it("covers the panel's own answers", () => {
    const { code, message, messageEn } = panelErrors.noSession;
    expect(errorBodyText({ code, message }, "en")).toBe(messageEn);
  });

  it("shows an unknown message, or a known message under another code, as sent", () => {
    expect(errorBodyText({ code: "500.100", message: "Coś innego" }, "en")).toBe("Coś innego");
    expect(errorBodyText({ code: "500.999", message: errorCatalog.invalidCapacity.message }, "en")).toBe(errorCatalog.invalidCapacity.message);
  });

  it("every catalog entry has an English text of its own", () => {
    for (const e of Object.values(errorCatalog)) {
      expect(e.messageEn.trim()).not.toBe("");
      expect(e.messageEn).not.toBe(e.message);
    }
  });
});

describe("failureText and catalogText", () => {
  it("adds the code to an API error, in the chosen language", () => {
    const { code, message, category, messageEn } = errorCatalog.nameTaken;
    const err = new PanelApiError(409, { code, message, category });
    expect(failureText(err, "en")).toBe(`${messageEn} (${code})`);
    expect(failureText(err, "pl")).toBe(`${message} (${code})`);
    expect(failureText(new Error("offline"), "en")).toBe("offline");
  });

  it("reads a catalog message by key", () => {
    expect(catalogText("invalidListName", "en")).toBe(errorCatalog.invalidListName.messageEn);
    expect(catalogText("invalidListName", "pl")).toBe(errorCatalog.invalidListName.message);
  });
});
