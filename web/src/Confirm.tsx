// A modal confirmation for the settings screens: says what will happen, and
// optionally asks for a typed word (the project's name) before it may proceed.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Modal } from './Modal';

export interface ConfirmProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The text the user must type to enable the confirm button. */
  typed?: string;
  onConfirm: () => void;
  onCancel: () => void;
}

export function Confirm({ title, children, confirmLabel, typed, onConfirm, onCancel }: ConfirmProps) {
  const { t } = useTranslation();
  const id = useId();
  const [value, setValue] = useState('');
  const first = useRef<HTMLButtonElement & HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <Modal labelledBy={`${id}-title`} onCancel={onCancel}>
      <h2 id={`${id}-title`}>{title}</h2>
      <div>{children}</div>
      {typed !== undefined && (
        <label>
          <Trans i18nKey="confirm.typeToConfirm" values={{ word: typed }} components={{ strong: <strong /> }} />
          <input ref={first} value={value} onChange={(e) => setValue(e.target.value)} />
        </label>
      )}
      <div className="actions">
        <button
          type="button"
          className="danger"
          ref={typed === undefined ? first : undefined}
          disabled={typed !== undefined && value !== typed}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
        <button type="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </Modal>
  );
}
