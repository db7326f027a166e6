// The key panel's screenshots: each screenshot the key is marked on, as its
// thumbnail with the key's rectangle highlighted (positioned in percent of the
// image, so it holds at any size); a click opens the full image.
import { useTranslation } from 'react-i18next';
import { useQuery } from 'urql';
import { KeyScreenshotsQuery } from './screenshot-documents';

const percent = (part: number, whole: number) => `${(part / whole) * 100}%`;

export function KeyScreenshots({
  projectToken,
  keyName,
  namespace,
}: {
  projectToken: string;
  keyName: string;
  namespace: string;
}) {
  const { t } = useTranslation();
  const [{ data, error }] = useQuery({
    query: KeyScreenshotsQuery,
    variables: { projectToken, key: keyName, namespace },
    requestPolicy: 'cache-and-network',
  });
  const marks = data?.translationKey.screenshots ?? [];
  return (
    <section className="key-shots" aria-label={t('keyShots.label', { key: keyName })}>
      <h3>{t('keyShots.title')}</h3>
      {error && (
        <p className="error" role="alert">
          {error.message}
        </p>
      )}
      {data && marks.length === 0 && <p className="muted">{t('keyShots.none')}</p>}
      <ul>
        {marks.map((mark) => (
          <li key={mark.id}>
            <figure>
              <a href={mark.screenshot.imagePath} target="_blank" rel="noreferrer" className="shot-frame">
                <img src={mark.screenshot.thumbnailPath} alt={t('keyShots.alt', { name: mark.screenshot.name })} />
                <span
                  className="shot-mark highlighted"
                  role="img"
                  aria-label={t('keyShots.where', { key: keyName, name: mark.screenshot.name })}
                  style={{
                    left: percent(mark.x, mark.screenshot.width),
                    top: percent(mark.y, mark.screenshot.height),
                    width: percent(mark.width, mark.screenshot.width),
                    height: percent(mark.height, mark.screenshot.height),
                  }}
                />
              </a>
              <figcaption>{mark.screenshot.name}</figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}
