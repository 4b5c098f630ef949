import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = {
  title: 'AgentDesk console',
  description: 'Sessions and transcripts of every AgentDesk user',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request, the not-found page too: Next puts the request's CSP nonce
  // (see proxy.ts) on its scripts only while rendering, so a page built ahead of time could not run.
  await connection();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
