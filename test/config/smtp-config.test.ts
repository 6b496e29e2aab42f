/** SLUICE_SMTP_URL, SLUICE_SMTP_FROM and SLUICE_SMTP_TO: where actions' $.send.email goes. */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/env.js";
import { loadServerConfig } from "../../src/config/server-config.js";

describe("SMTP configuration", () => {
  it("is off without SLUICE_SMTP_URL", () => {
    expect(loadServerConfig({}, {}).smtp).toBeUndefined();
  });

  it("reads the URL, the sender and the recipient; the recipient defaults to the sender", () => {
    expect(
      loadServerConfig(
        {},
        {
          SLUICE_SMTP_URL: "smtps://user:pw@smtp.example.com:465",
          SLUICE_SMTP_FROM: "Sluice <sluice@example.com>",
          SLUICE_SMTP_TO: "ops@example.com",
        },
      ).smtp,
    ).toEqual({
      url: "smtps://user:pw@smtp.example.com:465",
      from: "Sluice <sluice@example.com>",
      to: "ops@example.com",
    });
    expect(
      loadServerConfig({}, { SLUICE_SMTP_URL: "smtp://127.0.0.1:2525", SLUICE_SMTP_FROM: "me@example.com" })
        .smtp,
    ).toMatchObject({ from: "me@example.com", to: "me@example.com" });
  });

  it("refuses a URL that is not smtp(s), without repeating its password", () => {
    const load = () => loadServerConfig({}, { SLUICE_SMTP_URL: "https://user:hunter2@mail.example.com" });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/SLUICE_SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(load).not.toThrow(/hunter2/);
  });

  it("refuses a sender or recipient without the URL, and one that is not an address", () => {
    expect(() => loadServerConfig({}, { SLUICE_SMTP_FROM: "me@example.com" })).toThrow(
      /need SLUICE_SMTP_URL/,
    );
    expect(() =>
      loadServerConfig({}, { SLUICE_SMTP_URL: "smtp://localhost:25", SLUICE_SMTP_TO: "not an address" }),
    ).toThrow(/SLUICE_SMTP_TO must be an email address/);
  });
});
