// Invitation e-mails, sent with nodemailer to the SMTP server of SMTP_URL
// (smtp://user:pass@host:port, or smtps:// for implicit TLS).
import type { Transporter } from 'nodemailer';

const transports = new Map<string, Transporter>();

async function transport(smtpUrl: string): Promise<Transporter> {
  let t = transports.get(smtpUrl);
  if (!t) {
    // Loaded on the first invitation: most installations never send one.
    const { default: nodemailer } = await import('nodemailer');
    t = transports.get(smtpUrl) ?? nodemailer.createTransport(smtpUrl);
    transports.set(smtpUrl, t);
  }
  return t;
}

export interface InvitationMail {
  smtpUrl: string;
  from: string;
  to: string;
  link: string;
  projectName: string;
  role: string;
  inviter: string;
  expiresAt: Date;
}

export async function sendInvitationMail(mail: InvitationMail): Promise<void> {
  const text = [
    `${mail.inviter} invited you to the project "${mail.projectName}" as ${mail.role.toLowerCase()}.`,
    '',
    `Accept the invitation: ${mail.link}`,
    '',
    `The link works once and expires on ${mail.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
  ].join('\n');
  await (
    await transport(mail.smtpUrl)
  ).sendMail({
    from: mail.from,
    to: mail.to,
    subject: `Invitation to ${mail.projectName}`,
    text,
  });
}
