// A project's members: their roles, a translator's languages and review
// permission; changing, removing, transferring ownership, leaving; e-mail
// invitations and the role links. What the viewer may not do is not offered:
// the screen asks the service for its own permissions (Project.myPermissions),
// and the service checks again on every call.
import { Trans, useTranslation } from 'react-i18next';
import { formatDateTime, i18n } from './i18n';
import { useState, type FormEvent } from 'react';
import { useQuery, type CombinedError } from 'urql';
import { client } from './client';
import { graphql, type ResultOf } from './graphql';
import { CopyLink, messageOf } from './feedback';

const MembersQuery = graphql(`
  query MembersScreen($projectToken: String!) {
    viewer { email }
    project(projectToken: $projectToken) { name myRole myPermissions languages { key name } }
    members(projectToken: $projectToken) { accountId email name role languages canReview joinedAt }
  }
`);
const ManageQuery = graphql(`
  query MembersManage($projectToken: String!) {
    invitations(projectToken: $projectToken) { id email role languages canReview expiresAt invitedBy }
    roleLinks(projectToken: $projectToken) { role enabled languages canReview createdAt }
  }
`);
const UpdateMember = graphql(`
  mutation UpdateMember($projectToken: String!, $email: String!, $role: MemberRole!, $languages: [String!], $canReview: Boolean) {
    updateMember(projectToken: $projectToken, email: $email, role: $role, languages: $languages, canReview: $canReview)
  }
`);
const RemoveMember = graphql(
  `mutation RemoveMember($projectToken: String!, $email: String!) { removeMember(projectToken: $projectToken, email: $email) }`,
);
const TransferOwnership = graphql(
  `mutation TransferOwnership($projectToken: String!, $email: String!) { transferOwnership(projectToken: $projectToken, email: $email) }`,
);
const LeaveProject = graphql(
  `mutation LeaveProject($projectToken: String!) { leaveProject(projectToken: $projectToken) }`,
);
const InviteMember = graphql(`
  mutation InviteMember($projectToken: String!, $email: String!, $role: MemberRole!, $languages: [String!], $canReview: Boolean) {
    inviteMember(projectToken: $projectToken, email: $email, role: $role, languages: $languages, canReview: $canReview) { link emailSent invitation { email } }
  }
`);
const CancelInvitation = graphql(
  `mutation CancelInvitation($projectToken: String!, $id: Int!) { cancelInvitation(projectToken: $projectToken, id: $id) }`,
);
const ResetRoleLink = graphql(`
  mutation ResetRoleLink($projectToken: String!, $role: MemberRole!, $languages: [String!], $canReview: Boolean) {
    resetRoleLink(projectToken: $projectToken, role: $role, languages: $languages, canReview: $canReview) { role link }
  }
`);
const DisableRoleLink = graphql(
  `mutation DisableRoleLink($projectToken: String!, $role: MemberRole!) { disableRoleLink(projectToken: $projectToken, role: $role) }`,
);

type Role = 'OWNER' | 'ADMIN' | 'TRANSLATOR' | 'VIEWER';
type Member = ResultOf<typeof MembersQuery>['members'][number];
type Language = { key: string; name: string };
/** Runs one mutation, then reports its outcome and reloads the screen. */
type Act = (work: () => Promise<{ error?: CombinedError }>, done: string, after?: () => void) => Promise<void>;

/** Roles one can be given (the owner's changes only by a transfer). */
const GRANTABLE: readonly Role[] = ['ADMIN', 'TRANSLATOR', 'VIEWER'];
const roleLabel = (role: Role) => i18n.t(`members.role.${role}`);
const SR = { sr: <span className="sr-only" /> };

interface Grant {
  role: Role;
  languages: string[];
  canReview: boolean;
}

/** A grant's arguments: languages and the review permission are a translator's only. */
const grantArgs = (g: Grant) =>
  g.role === 'TRANSLATOR'
    ? { role: g.role, languages: g.languages, canReview: g.canReview }
    : { role: g.role, languages: null, canReview: null };

const dateOf = (iso: string | null | undefined) =>
  iso ? formatDateTime(iso, { year: 'numeric', month: 'short', day: 'numeric' }) : '';

/** Role, and for a translator its languages (none checked: every language) and review permission. */
function GrantFields({
  grant,
  onChange,
  languages,
  about,
  roles = GRANTABLE,
}: {
  grant: Grant;
  onChange: (g: Grant) => void;
  languages: Language[];
  about: string;
  roles?: readonly Role[];
}) {
  const { t } = useTranslation();
  const toggle = (key: string, on: boolean) =>
    onChange({ ...grant, languages: on ? [...grant.languages, key] : grant.languages.filter((k) => k !== key) });
  return (
    <div className="grant">
      <label>
        {t('members.roleLabel')}
        <select
          aria-label={t('members.roleAbout', { about })}
          value={grant.role}
          onChange={(e) => onChange({ ...grant, role: e.target.value as Role })}
        >
          {roles.map((r) => (
            <option key={r} value={r}>
              {roleLabel(r)}
            </option>
          ))}
        </select>
      </label>
      {grant.role === 'TRANSLATOR' && (
        <>
          <fieldset className="languages">
            <legend>{t('members.languagesAbout', { about })}</legend>
            {languages.map((l) => (
              <label key={l.key} className="check">
                <input
                  type="checkbox"
                  checked={grant.languages.includes(l.key)}
                  onChange={(e) => toggle(l.key, e.target.checked)}
                />
                {l.key}
              </label>
            ))}
          </fieldset>
          <label className="check">
            <input
              type="checkbox"
              checked={grant.canReview}
              onChange={(e) => onChange({ ...grant, canReview: e.target.checked })}
              aria-label={t('members.mayReviewAbout', { about })}
            />
            {t('members.mayReview')}
          </label>
        </>
      )}
    </div>
  );
}

const sameGrant = (a: Grant, b: Grant) =>
  a.role === b.role && a.canReview === b.canReview && [...a.languages].sort().join() === [...b.languages].sort().join();

function MemberRow({
  projectToken,
  member,
  me,
  canManage,
  canTransfer,
  languages,
  act,
}: {
  projectToken: string;
  member: Member;
  me: boolean;
  canManage: boolean;
  canTransfer: boolean;
  languages: Language[];
  act: Act;
}) {
  const { t } = useTranslation();
  const role = member.role as Role;
  const stored: Grant = { role, languages: member.languages, canReview: role === 'TRANSLATOR' && member.canReview };
  const [grant, setGrant] = useState<Grant>(stored);
  const who = member.name ? `${member.name} (${member.email})` : member.email;
  const editable = canManage && role !== 'OWNER';
  const save = () =>
    act(
      () => client.mutation(UpdateMember, { projectToken, email: member.email, ...grantArgs(grant) }).toPromise(),
      t('members.saved', { email: member.email }),
    );
  return (
    <tr>
      <th scope="row">
        {member.name && <span className="member-name">{member.name}</span>}
        <span className="member-email">{member.email}</span>
        {me && <span className="badge">{t('members.you')}</span>}
      </th>
      <td>
        {editable ? (
          <GrantFields
            grant={grant}
            onChange={setGrant}
            languages={languages}
            about={t('members.ofMember', { email: member.email })}
          />
        ) : (
          roleLabel(role)
        )}
      </td>
      {!canManage && (
        <td>
          {role === 'TRANSLATOR' ? (member.languages.length ? member.languages.join(', ') : t('members.all')) : '—'}
        </td>
      )}
      {!canManage && <td>{member.canReview ? t('common.yes') : t('common.no')}</td>}
      <td>{dateOf(member.joinedAt)}</td>
      {(canManage || canTransfer) && (
        <td>
          <div className="row-actions">
            {editable && (
              <button type="button" disabled={sameGrant(grant, stored)} onClick={save}>
                <Trans i18nKey="members.saveButton" values={{ email: member.email }} components={SR} />
              </button>
            )}
            {editable && !me && (
              <button
                type="button"
                className="danger"
                onClick={() =>
                  confirm(t('members.confirmRemove', { who })) &&
                  act(
                    () => client.mutation(RemoveMember, { projectToken, email: member.email }).toPromise(),
                    t('members.removed', { email: member.email }),
                  )
                }
              >
                <Trans i18nKey="members.removeButton" values={{ email: member.email }} components={SR} />
              </button>
            )}
            {canTransfer && !me && (
              <button
                type="button"
                onClick={() =>
                  confirm(t('members.confirmTransfer', { who })) &&
                  act(
                    () => client.mutation(TransferOwnership, { projectToken, email: member.email }).toPromise(),
                    t('members.transferred', { email: member.email }),
                  )
                }
              >
                <Trans i18nKey="members.makeOwnerButton" values={{ email: member.email }} components={SR} />
              </button>
            )}
          </div>
        </td>
      )}
    </tr>
  );
}

export function MembersScreen({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  const [{ data, error }, refetch] = useQuery({ query: MembersQuery, variables: { projectToken } });
  const permissions = data?.project.myPermissions ?? [];
  const canManage = permissions.includes('MEMBERS');
  const canTransfer = permissions.includes('TRANSFER_OWNERSHIP');
  const [{ data: manage }, refetchManage] = useQuery({
    query: ManageQuery,
    variables: { projectToken },
    pause: !canManage,
  });
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');

  const reload = () => {
    refetch({ requestPolicy: 'network-only' });
    if (canManage) refetchManage({ requestPolicy: 'network-only' });
  };
  const act: Act = async (work, done, after) => {
    setStatus('');
    setFailure('');
    const result = await work();
    if (result.error) return setFailure(messageOf(result.error));
    setStatus(done);
    after?.();
    reload();
  };

  if (error)
    return (
      <main className="team">
        <p role="alert" className="error">
          {messageOf(error)}
        </p>
      </main>
    );
  if (!data)
    return (
      <main className="team" aria-busy="true">
        {t('common.loading')}
      </main>
    );
  const languages = data.project.languages;
  const me = data.viewer?.email;
  const myRole = data.project.myRole as Role | null;
  const leave = async () => {
    if (!confirm(t('members.confirmLeave'))) return;
    const result = await client.mutation(LeaveProject, { projectToken }).toPromise();
    if (result.error) return setFailure(messageOf(result.error));
    // Not a member any more: nothing of the project to show.
    location.hash = '#/';
  };

  return (
    <main className="team">
      <div className="team-head">
        <h1>{t('members.title', { name: data.project.name })}</h1>
        {myRole && myRole !== 'OWNER' && (
          <button type="button" className="danger" onClick={leave}>
            {t('members.leave')}
          </button>
        )}
      </div>
      <p className="status" role="status">
        {status}
      </p>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      <table className="data-table members">
        <caption className="sr-only">{t('members.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('members.member')}</th>
            {canManage ? (
              <th scope="col">{t('members.roleAndLanguages')}</th>
            ) : (
              <>
                <th scope="col">{t('members.roleLabel')}</th>
                <th scope="col">{t('members.languages')}</th>
                <th scope="col">{t('members.mayReview')}</th>
              </>
            )}
            <th scope="col">{t('members.joined')}</th>
            {(canManage || canTransfer) && (
              <th scope="col">
                <span className="sr-only">{t('common.actions')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {data.members.map((m) => (
            <MemberRow
              key={`${m.email}:${m.role}:${m.languages.join()}:${m.canReview}`}
              projectToken={projectToken}
              member={m}
              me={m.email === me}
              canManage={canManage}
              canTransfer={canTransfer}
              languages={languages}
              act={act}
            />
          ))}
        </tbody>
      </table>
      {canManage && <InviteForm projectToken={projectToken} languages={languages} act={act} />}
      {canManage && manage && <Invitations projectToken={projectToken} invitations={manage.invitations} act={act} />}
      {canManage && manage && (
        <RoleLinks projectToken={projectToken} links={manage.roleLinks} languages={languages} act={act} />
      )}
    </main>
  );
}

function InviteForm({ projectToken, languages, act }: { projectToken: string; languages: Language[]; act: Act }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [grant, setGrant] = useState<Grant>({ role: 'TRANSLATOR', languages: [], canReview: false });
  const [sent, setSent] = useState<{ email: string; link: string | null } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let answer: { email: string; link: string | null } | null = null;
    await act(
      async () => {
        const result = await client.mutation(InviteMember, { projectToken, email, ...grantArgs(grant) }).toPromise();
        const invited = result.data?.inviteMember;
        if (invited) answer = { email: invited.invitation.email ?? email, link: invited.link ?? null };
        return result;
      },
      t('members.invited', { email }),
      () => {
        setSent(answer);
        setEmail('');
      },
    );
  };
  return (
    <section className="team-section" aria-labelledby="invite-heading">
      <h2 id="invite-heading">{t('members.inviteTitle')}</h2>
      <form className="invite" onSubmit={submit}>
        <label>
          {t('members.email')}
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <GrantFields grant={grant} onChange={setGrant} languages={languages} about={t('members.ofInvitee')} />
        <button type="submit">{t('members.invite')}</button>
      </form>
      {sent &&
        (sent.link ? (
          <div className="one-time">
            <p>{t('members.noSmtp', { email: sent.email })}</p>
            <CopyLink label={t('members.invitationLink', { email: sent.email })} link={sent.link} />
          </div>
        ) : (
          <p>{t('members.emailed', { email: sent.email })}</p>
        ))}
    </section>
  );
}

function Invitations({
  projectToken,
  invitations,
  act,
}: {
  projectToken: string;
  invitations: ResultOf<typeof ManageQuery>['invitations'];
  act: Act;
}) {
  const { t } = useTranslation();
  return (
    <section className="team-section" aria-labelledby="pending-heading">
      <h2 id="pending-heading">{t('members.pending')}</h2>
      {invitations.length === 0 ? (
        <p>{t('members.none')}</p>
      ) : (
        <table className="data-table members">
          <thead>
            <tr>
              <th scope="col">{t('members.emailColumn')}</th>
              <th scope="col">{t('members.roleLabel')}</th>
              <th scope="col">{t('members.invitedBy')}</th>
              <th scope="col">{t('common.expires')}</th>
              <th scope="col">
                <span className="sr-only">{t('common.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invitations.map((i) => (
              <tr key={i.id}>
                <th scope="row">{i.email}</th>
                <td>
                  {roleLabel(i.role as Role)}
                  {i.role === 'TRANSLATOR' &&
                    ` (${i.languages.length ? i.languages.join(', ') : t('members.allLanguages')}${i.canReview ? t('members.mayReviewSuffix') : ''})`}
                </td>
                <td>{i.invitedBy}</td>
                <td>{dateOf(i.expiresAt)}</td>
                <td>
                  <button
                    type="button"
                    onClick={() =>
                      act(
                        () => client.mutation(CancelInvitation, { projectToken, id: i.id }).toPromise(),
                        t('members.cancelled', { email: i.email }),
                      )
                    }
                  >
                    <Trans i18nKey="members.cancel" values={{ email: i.email }} components={SR} />
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function RoleLinks({
  projectToken,
  links,
  languages,
  act,
}: {
  projectToken: string;
  links: ResultOf<typeof ManageQuery>['roleLinks'];
  languages: Language[];
  act: Act;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<{ role: Role; link: string } | null>(null);
  return (
    <section className="team-section" aria-labelledby="links-heading">
      <h2 id="links-heading">{t('members.roleLinks')}</h2>
      <p>{t('members.roleLinksHint')}</p>
      <table className="data-table members">
        <thead>
          <tr>
            <th scope="col">{t('members.roleLabel')}</th>
            <th scope="col">{t('members.link')}</th>
            <th scope="col">{t('members.grantOfNewLink')}</th>
            <th scope="col">
              <span className="sr-only">{t('common.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {links.map((l) => (
            <RoleLinkRow
              key={`${l.role}:${l.createdAt}:${l.enabled}`}
              projectToken={projectToken}
              link={l}
              languages={languages}
              act={act}
              onLink={setShown}
            />
          ))}
        </tbody>
      </table>
      {shown && (
        <div className="one-time">
          <p>{t('members.newLinkShown', { role: roleLabel(shown.role) })}</p>
          <CopyLink label={t('members.linkLabel', { role: roleLabel(shown.role) })} link={shown.link} />
        </div>
      )}
    </section>
  );
}

function RoleLinkRow({
  projectToken,
  link,
  languages,
  act,
  onLink,
}: {
  projectToken: string;
  link: ResultOf<typeof ManageQuery>['roleLinks'][number];
  languages: Language[];
  act: Act;
  onLink: (l: { role: Role; link: string }) => void;
}) {
  const { t } = useTranslation();
  const role = link.role as Role;
  const [grant, setGrant] = useState<Grant>({ role, languages: link.languages, canReview: link.canReview });
  const label = roleLabel(role);
  const reset = async () => {
    if (link.enabled && !confirm(t('members.confirmReset', { role: label }))) return;
    let made: string | null = null;
    await act(
      async () => {
        const result = await client.mutation(ResetRoleLink, { projectToken, ...grantArgs(grant) }).toPromise();
        made = result.data?.resetRoleLink.link ?? null;
        return result;
      },
      t('members.linkMade', { role: label }),
      () => {
        if (made) onLink({ role, link: made });
      },
    );
  };
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>
        {link.enabled
          ? t('members.enabledSince', { date: dateOf(link.createdAt) })
          : link.createdAt
            ? t('members.disabled')
            : t('members.noneYet')}
      </td>
      <td>
        {role === 'TRANSLATOR' ? (
          <GrantFields
            grant={grant}
            onChange={setGrant}
            languages={languages}
            about={t('members.ofTranslatorLink')}
            roles={['TRANSLATOR']}
          />
        ) : (
          '—'
        )}
      </td>
      <td>
        <div className="row-actions">
          <button type="button" onClick={reset}>
            <Trans
              i18nKey={link.createdAt ? 'members.reset' : 'members.create'}
              values={{ role: label }}
              components={SR}
            />
          </button>
          {link.enabled && (
            <button
              type="button"
              className="danger"
              onClick={() =>
                act(
                  () => client.mutation(DisableRoleLink, { projectToken, role }).toPromise(),
                  t('members.linkDisabled', { role: label }),
                )
              }
            >
              <Trans i18nKey="members.disable" values={{ role: label }} components={SR} />
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}
