// A project's screens under #/projects/<token>/<section>, with links between
// them. Each screen is one entry of `sections`; the first is the default.
import { lazy, Suspense, type ComponentType } from 'react';
import { Editor } from './Editor';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from './page-title';
import type en from './locales/en.json';

// The editor, where a project opens, comes with the console; every other
// screen is a chunk of its own, fetched when it is first opened.
type Screen = ComponentType<{ projectToken: string }>;
const screen = <M,>(load: () => Promise<M>, pick: (module: M) => Screen) =>
  lazy(async () => ({ default: pick(await load()) }));
const QualityScreen = screen(
  () => import('./QualityScreen'),
  (m) => m.QualityScreen,
);
const GlossaryScreen = screen(
  () => import('./GlossaryScreen'),
  (m) => m.GlossaryScreen,
);
const ScreenshotsScreen = screen(
  () => import('./ScreenshotsScreen'),
  (m) => m.ScreenshotsScreen,
);
const ImportScreen = screen(
  () => import('./ImportScreen'),
  (m) => m.ImportScreen,
);
const ExportScreen = screen(
  () => import('./ExportScreen'),
  (m) => m.ExportScreen,
);
const AutoTranslateScreen = screen(
  () => import('./AutoTranslateScreen'),
  (m) => m.AutoTranslateScreen,
);
const GitSyncScreen = screen(
  () => import('./GitSyncScreen'),
  (m) => m.GitSyncScreen,
);
const HostingScreen = screen(
  () => import('./HostingScreen'),
  (m) => m.HostingScreen,
);
const AutomationsScreen = screen(
  () => import('./AutomationsScreen'),
  (m) => m.AutomationsScreen,
);
const MembersScreen = screen(
  () => import('./MembersScreen'),
  (m) => m.MembersScreen,
);
const ActivityScreen = screen(
  () => import('./ActivityScreen'),
  (m) => m.ActivityScreen,
);
const ProjectSettings = screen(
  () => import('./ProjectSettings'),
  (m) => m.ProjectSettings,
);

interface Section {
  id: string;
  label: Exclude<keyof (typeof en)['nav'], 'project'>;
  Screen: Screen;
}

const sections: Section[] = [
  { id: 'translations', label: 'translations', Screen: Editor },
  { id: 'quality', label: 'quality', Screen: QualityScreen },
  { id: 'glossary', label: 'glossary', Screen: GlossaryScreen },
  { id: 'screenshots', label: 'screenshots', Screen: ScreenshotsScreen },
  { id: 'import', label: 'import', Screen: ImportScreen },
  { id: 'export', label: 'export', Screen: ExportScreen },
  { id: 'auto-translate', label: 'autoTranslate', Screen: AutoTranslateScreen },
  { id: 'git', label: 'git', Screen: GitSyncScreen },
  { id: 'hosting', label: 'hosting', Screen: HostingScreen },
  { id: 'automations', label: 'automations', Screen: AutomationsScreen },
  { id: 'members', label: 'members', Screen: MembersScreen },
  { id: 'activity', label: 'activity', Screen: ActivityScreen },
  { id: 'settings', label: 'settings', Screen: ProjectSettings },
];

export function ProjectLayout({ projectToken, section }: { projectToken: string; section: string | undefined }) {
  const current = sections.find((s) => s.id === section) ?? sections[0]!;
  const base = `#/projects/${encodeURIComponent(projectToken)}`;
  const { t } = useTranslation();
  usePageTitle(t(`nav.${current.label}`));
  return (
    <div className="project">
      <nav className="project-nav" aria-label={t('nav.project')}>
        {sections.map((s) => (
          <a key={s.id} href={`${base}/${s.id}`} aria-current={s === current ? 'page' : undefined}>
            {t(`nav.${s.label}`)}
          </a>
        ))}
      </nav>
      <div className="project-main">
        <Suspense
          fallback={
            <p className="loading" role="status">
              {t('common.loading')}
            </p>
          }
        >
          <current.Screen key={projectToken} projectToken={projectToken} />
        </Suspense>
      </div>
    </div>
  );
}
