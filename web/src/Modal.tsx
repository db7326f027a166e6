// A modal dialog on the browser's own <dialog>: showModal() makes the rest of
// the page inert, so focus cannot leave the dialog (Tab cycles inside it) and
// assistive technology sees only the dialog; closing it gives the focus back
// to the element that had it. Escape cancels, when the dialog may be
// cancelled; otherwise the user must choose one of its buttons.
import { useLayoutEffect, useRef, type ReactNode } from 'react';

export interface ModalProps {
  /** The id of the element that names the dialog (its heading). */
  labelledBy: string;
  /** Escape: absent when the dialog needs an answer. */
  onCancel?: () => void;
  children: ReactNode;
}

export function Modal({ labelledBy, onCancel, children }: ModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef(onCancel);
  cancel.current = onCancel;
  // A layout effect: its clean-up closes the dialog while it is still in the page, which is
  // when the browser gives the focus back (a dialog removed while open gives it to nobody).
  useLayoutEffect(() => {
    const element = dialog.current!;
    element.showModal();
    return () => element.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        cancel.current?.();
      }}
    >
      {children}
    </dialog>
  );
}
