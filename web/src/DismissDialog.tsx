// Dismissing a quality finding: a modal asking for the reason (the service
// records it in the activity log); the finding comes back when its text changes.
import { useTranslation } from 'react-i18next';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { Modal } from './Modal';
import { DismissFinding, type QualityFinding } from './quality-documents';
import { messageOf } from './feedback';

interface Props {
  projectToken: string;
  finding: QualityFinding;
  /** What is dismissed, in words (the check's title, key and language). */
  title: string;
  onCancel: () => void;
  onDone: () => void;
}

export function DismissDialog({ projectToken, finding, title, onCancel, onDone }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [{ fetching }, dismiss] = useMutation(DismissFinding);
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => field.current?.focus(), []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await dismiss({
      projectToken,
      key: finding.key,
      namespace: finding.namespace,
      languageCode: finding.languageCode,
      customerKey: finding.customerKey,
      check: finding.check,
      reason: reason.trim(),
    });
    if (result.error) return setError(messageOf(result.error));
    onDone();
  };
  return (
    <Modal labelledBy={`${id}-title`} onCancel={onCancel}>
      <form onSubmit={submit} className="dismiss-form">
        <h2 id={`${id}-title`}>{t('dismiss.title', { title })}</h2>
        <p className="finding-message">{finding.message}</p>
        <p className="hint">{t('dismiss.hint')}</p>
        <label>
          {t('dismiss.reason')}
          <textarea ref={field} value={reason} onChange={(e) => setReason(e.target.value)} required rows={3} />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="submit" disabled={fetching || reason.trim() === ''}>
            {t('dismiss.submit')}
          </button>
          <button type="button" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
