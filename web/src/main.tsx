import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'urql';
import { useTranslation } from 'react-i18next';
import { client } from './client';
import { App } from './App';
import { applyStoredTheme } from './theme';
import { startI18n } from './i18n';
import './design.css';
import './styles.css';

applyStoredTheme();

/** The console, drawn again from the top when its language changes (texts worded outside components too). */
function Root() {
  const { i18n } = useTranslation();
  return <App key={i18n.language} />;
}

await startI18n();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider value={client}>
      <Root />
    </Provider>
  </StrictMode>,
);
