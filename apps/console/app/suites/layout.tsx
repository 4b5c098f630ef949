import type { ReactNode } from 'react';
import '../../features/qa-suites/qa-suites.css';

/** The QA suite pages: their own styles (the matrix, the progress bar, the editor). */
export default function SuitesLayout({ children }: { children: ReactNode }) {
  return children;
}
