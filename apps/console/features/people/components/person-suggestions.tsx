'use client';

import { useEffect, useState } from 'react';

interface Suggestion {
  readonly value: string;
  readonly label: string;
}

/**
 * The options of a native `<datalist>` for a person field: as the input changes (after a short
 * pause), the names whose name, email or external id start with what was typed. Without script the
 * field still takes a name or an id.
 */
export function PersonSuggestions({ inputId, listId }: { inputId: string; listId: string }) {
  const [suggestions, setSuggestions] = useState<readonly Suggestion[]>([]);
  useEffect(() => {
    const input = document.getElementById(inputId);
    if (!(input instanceof HTMLInputElement)) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | undefined;
    const onInput = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        controller?.abort();
        const text = input.value.trim();
        if (text === '') {
          setSuggestions([]);
          return;
        }
        controller = new AbortController();
        fetch(`/users/suggest?q=${encodeURIComponent(text)}`, { signal: controller.signal })
          .then((response) => (response.ok ? (response.json() as Promise<Suggestion[]>) : []))
          .then(setSuggestions)
          .catch(() => undefined);
      }, 150);
    };
    input.addEventListener('input', onInput);
    return () => {
      input.removeEventListener('input', onInput);
      clearTimeout(timer);
      controller?.abort();
    };
  }, [inputId]);
  return (
    <datalist id={listId}>
      {suggestions.map((suggestion) => (
        <option
          key={`${suggestion.value}|${suggestion.label}`}
          value={suggestion.value}
          label={suggestion.label}
        />
      ))}
    </datalist>
  );
}
