import { describe, expect, it } from "vitest";
import { errorCatalog } from "@/lib/errors/catalog";
import { panelErrors } from "@/lib/errors/panel-errors";
import { PanelApiError } from "./api";
import { catalogText, errorBodyText, errorCodes, failureText } from "./error-text";

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
    expect(errorBodyText({ code: "500.999", message: errorCatalog.invalidCapacity.message }, "en")).toBe(
      errorCatalog.invalidCapacity.message,
    );
  });

  it("names the addresses that lead to a list, and how many in all, in both languages", () => {
    const { code, message, messageEn } = errorCatalog.listAddressIsList;
    const attributes = { leads_to_list: [{ address: "alias@a.pl", list: "lista@a.pl" }], count: 1200 };
    expect(errorBodyText({ code, message, attributes }, "pl")).toBe(
      `${message} Prowadzi do listy: „alias@a.pl” → „lista@a.pl” (wszystkich: 1200).`,
    );
    expect(errorBodyText({ code, message, attributes: { leads_to_list: attributes.leads_to_list } }, "en")).toBe(
      `${messageEn} Leads to a list: "alias@a.pl" → "lista@a.pl".`,
    );
    // An address outside the list's own domain comes without its list (docs/lists.md, "Nested lists").
    const alone = { leads_to_list: [{ address: "x@siostra.pl" }, { address: "alias@a.pl", list: "lista@a.pl" }] };
    expect(errorBodyText({ code, message, attributes: alone }, "pl")).toBe(
      `${message} Prowadzi do listy: „x@siostra.pl”, „alias@a.pl” → „lista@a.pl”.`,
    );
  });

  it("every catalog entry has an English text of its own", () => {
    for (const e of Object.values(errorCatalog)) {
      expect(e.messageEn.trim()).not.toBe("");
      expect(e.messageEn).not.toBe(e.message);
    }
  });
});

describe("failureText and catalogText", () => {
  it("says an API error in the chosen language without its code; the codes are apart", () => {
    const { code, message, category, messageEn } = errorCatalog.nameTaken;
    const err = new PanelApiError(409, { code, message, category, source: "jan" });
    expect(failureText(err, "en")).toBe(messageEn);
    expect(failureText(err, "pl")).toBe(message);
    expect(errorCodes(err)).toEqual(["409.1 jan"]);
    expect(failureText(new Error("offline"), "en")).toBe("offline");
  });

  it("adds what the attributes say: quoted entries, the capacity limit and the MB free, plural forms", () => {
    const forward = errorCatalog.invalidForward;
    const bad = { code: forward.code, message: forward.message, attributes: { invalid: ["zly adres", "x@"] } };
    expect(errorBodyText(bad, "pl")).toBe(`${forward.message} Błędne wpisy: „zly adres”, „x@”.`);
    expect(errorBodyText(bad, "en")).toBe(`${forward.messageEn} Invalid entries: "zly adres", "x@".`);
    const cap = errorCatalog.capacityLimitReached;
    const over = {
      code: cap.code,
      message: cap.message,
      attributes: { capacity_limit: 3000, free_mb: 76, requested: 3100 },
    };
    expect(errorBodyText(over, "pl")).toBe(`${cap.message} Limit domeny: 3000 MB, wolne jeszcze: 76 MB.`);
    const many = errorCatalog.tooManyForwards;
    expect(errorBodyText({ code: many.code, message: many.message, attributes: { forward_limit: 3 } }, "pl")).toBe(
      `${many.message} Najwyżej 3 przekierowania.`,
    );
    expect(errorBodyText({ code: many.code, message: many.message, attributes: { forward_limit: 5 } }, "pl")).toBe(
      `${many.message} Najwyżej 5 przekierowań.`,
    );
    const dates = errorCatalog.autoresponderEndBeforeStart;
    expect(
      errorBodyText(
        { code: dates.code, message: dates.message, attributes: { start_date: "2030-05-10", end_date: "2030-05-09" } },
        "pl",
      ),
    ).toBe(`${dates.message} Początek: 10.05.2030, koniec: 09.05.2030.`);
  });

  it("reads a catalog message by key", () => {
    expect(catalogText("invalidListName", "en")).toBe(errorCatalog.invalidListName.messageEn);
    expect(catalogText("invalidListName", "pl")).toBe(errorCatalog.invalidListName.message);
  });
});
