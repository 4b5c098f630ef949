'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent, type ReactNode } from 'react';
import { dayRangeProblem, queryOfSetFields } from '../date-range';

/**
 * A filter form whose URL carries only the filters set (a plain GET form writes every empty field
 * as `name=`), and that refuses a date range the wrong way round where it is typed. Without
 * JavaScript it is still a GET form: the page reads the same URL, and names the same problem.
 */
export function FilterForm({
  action,
  label,
  range,
  children,
}: {
  action: string;
  label: string;
  /** The names of the form's first and last day fields, and their titles for the message. */
  range?: { from: string; to: string; fromTitle: string; toTitle: string };
  children: ReactNode;
}) {
  const router = useRouter();
  const [problem, setProblem] = useState<string | undefined>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    if (range !== undefined) {
      const text = (name: string) => {
        const value = data.get(name);
        return typeof value === 'string' && value !== '' ? value : undefined;
      };
      const found = dayRangeProblem(
        { from: text(range.from), to: text(range.to) },
        { from: range.fromTitle, to: range.toTitle },
      );
      setProblem(found);
      if (found !== undefined) return;
    }
    const query = queryOfSetFields(data.entries());
    router.push(query === '' ? action : `${action}?${query}`);
  }

  return (
    <form method="get" action={action} className="filters" aria-label={label} onSubmit={submit} noValidate>
      {children}
      {problem !== undefined && (
        <p role="alert" className="alert form-problem">
          {problem}
        </p>
      )}
    </form>
  );
}
