/** A destructive button that asks first, in a real dialog (not window.confirm). */
import { useRef } from "react";

export function ConfirmButton({
  label,
  question,
  onConfirm,
  disabled,
}: {
  label: string;
  question: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button
        type="button"
        className="danger"
        disabled={disabled}
        onClick={() => dialog.current?.showModal()}
      >
        {label}
      </button>
      <dialog ref={dialog} aria-label={question}>
        <p>{question}</p>
        <div className="row">
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button
            type="button"
            className="danger"
            onClick={() => {
              dialog.current?.close();
              onConfirm();
            }}
          >
            Yes, {label.toLowerCase()}
          </button>
        </div>
      </dialog>
    </>
  );
}
