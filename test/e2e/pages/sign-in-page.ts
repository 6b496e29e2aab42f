/** Page object: /signin. */
import type { Page } from "playwright-core";

export class SignInPage {
  constructor(private readonly page: Page) {}

  async goto(next?: string): Promise<void> {
    await this.page.goto(next ? `/signin?next=${encodeURIComponent(next)}` : "/signin");
  }

  async signIn(apiKey: string): Promise<void> {
    await this.page.getByLabel("API key").fill(apiKey);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }

  error() {
    return this.page.locator("#api_key-error");
  }
}
