// The browser tab's title: the screen, then the product.
import { useEffect } from 'react';

export function usePageTitle(screen: string): void {
  useEffect(() => {
    document.title = `${screen} · Localization service`;
  }, [screen]);
}
