// The browser tab's title: the screen, then the product.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export function usePageTitle(screen: string): void {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${screen} · ${t('app.product')}`;
  }, [screen, t]);
}
