/**
 * Email through the SMTP server of the configuration (SLUICE_SMTP_URL): what `$.send.email` uses.
 * Only this file knows nodemailer. The recipient is fixed by the configuration, as Pipedream sends
 * `$.send.email` to the account's own address: a component cannot pick who gets mail.
 */
import nodemailer from "nodemailer";

export interface SmtpSettings {
  /** `smtp://` or `smtps://`, credentials included; never logged nor returned. */
  readonly url: string;
  readonly from: string;
  readonly to: string;
}

export interface Email {
  readonly subject: string;
  readonly text?: string;
  readonly html?: string;
}

export interface Mailer {
  /** Sends one email; resolves with the SMTP server's message id, rejects with its reason. */
  send(email: Email): Promise<{ readonly messageId: string }>;
  close(): void;
}

const CONNECT_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

export function createMailer(settings: SmtpSettings): Mailer {
  const transport = nodemailer.createTransport({
    url: settings.url,
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: CONNECT_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    // No debug output: the URL may carry the SMTP password.
    logger: false,
    debug: false,
  });
  return {
    async send(email) {
      const info = await transport.sendMail({
        from: settings.from,
        to: settings.to,
        subject: email.subject,
        ...(email.text === undefined ? {} : { text: email.text }),
        ...(email.html === undefined ? {} : { html: email.html }),
      });
      return { messageId: String(info.messageId) };
    },
    close() {
      transport.close();
    },
  };
}
