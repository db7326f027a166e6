// The query part of a screen's address (#/projects/<token>/quality?severity=error):
// the filters a link can carry (the publication gate's refusal links to one),
// kept in the address so that back and forward move between them.
import { useEffect, useState } from 'react';

const split = (hash: string) => {
  const at = hash.indexOf('?');
  return at < 0 ? { path: hash, query: '' } : { path: hash.slice(0, at), query: hash.slice(at + 1) };
};

/** A link to a project's screen with these parameters (empty values left out). */
export function screenLink(
  projectToken: string,
  section: string,
  params: Record<string, string | null | undefined> = {},
): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) query.set(name, value);
  const text = query.toString();
  return `#/projects/${encodeURIComponent(projectToken)}/${section}${text ? `?${text}` : ''}`;
}

/** The parameters of the current address, and a setter that moves to the same screen with some changed. */
export function useHashParams(): [URLSearchParams, (patch: Record<string, string | null>) => void] {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const update = () => setHash(location.hash);
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  const params = new URLSearchParams(split(hash).query);
  const set = (patch: Record<string, string | null>) => {
    const { path, query } = split(location.hash);
    const next = new URLSearchParams(query);
    for (const [name, value] of Object.entries(patch)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    const text = next.toString();
    location.hash = `${path}${text ? `?${text}` : ''}`;
    // At once, not on the hashchange event: a controlled checkbox or select shows its new value right away.
    setHash(location.hash);
  };
  return [params, set];
}
