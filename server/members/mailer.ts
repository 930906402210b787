// Invitation mail over SMTP (nodemailer), when SMTP_URL is set. A failed send never undoes the
// invitation: the admin has the link, shown once, and can resend.
import nodemailer, { type Transporter } from 'nodemailer';
import { env } from '../env';
import { processSingleton } from '../process-singletons';
import { logger } from '../telemetry/logger';

export type Delivery = 'sent' | 'not_configured' | 'failed';

const transport = () => processSingleton<{ url?: string; t?: Transporter }>('invitation-mailer', () => ({}));

function transporter(url: string): Transporter {
  const s = transport();
  if (!s.t || s.url !== url) {
    // Bounded waits: an unreachable mail server must not hold the admin's request for minutes.
    s.t = nodemailer.createTransport(url, {
      connectionTimeout: 5_000,
      greetingTimeout: 5_000,
      socketTimeout: 10_000,
    } as object);
    s.url = url;
  }
  return s.t;
}

export interface InvitationMail {
  to: string;
  orgName: string;
  orgSlug: string;
  role: string;
  link: string;
  expiresAt: Date;
  invitedBy: string | null;
}

export function invitationText(m: InvitationMail): { subject: string; text: string } {
  const who = m.invitedBy ? `${m.invitedBy} invited you` : 'You are invited';
  return {
    subject: `Join ${m.orgName} on Meridian`,
    text: [
      `${who} to join ${m.orgName} (${m.orgSlug}) on Meridian as ${m.role === 'admin' ? 'an' : 'a'} ${m.role}.`,
      '',
      `Accept the invitation: ${m.link}`,
      '',
      `The link works once and until ${m.expiresAt.toUTCString()}. If you did not expect it, ignore this mail.`,
    ].join('\n'),
  };
}

/** Sends the invitation when mail is configured; says what happened (never throws). */
export async function sendInvitationMail(m: InvitationMail): Promise<Delivery> {
  const url = env().SMTP_URL;
  if (!url) return 'not_configured';
  const { subject, text } = invitationText(m);
  try {
    await transporter(url).sendMail({
      from: env().MERIDIAN_MAIL_FROM ?? `Meridian <no-reply@${env().MERIDIAN_HOST}>`,
      to: m.to,
      subject,
      text,
    });
    return 'sent';
  } catch (e) {
    // The link is a secret: never logged, nor the error's envelope beyond its message.
    logger.warn({ err: (e as Error).message, org: m.orgSlug }, 'invitation mail was not sent');
    return 'failed';
  }
}
