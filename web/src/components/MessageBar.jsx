// MessageBar.jsx — the session's one message (an error says what went wrong; the game goes on).
export function MessageBar({ message, onDismiss }) {
  if (!message) return <div class="message-slot" aria-live="polite" />;
  return (
    <div class="message-slot" aria-live="polite">
      <div class={`message message-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
        <span class="message-icon" aria-hidden="true">
          {message.kind === 'error' ? '!' : 'i'}
        </span>
        <p>{message.text}</p>
        <button type="button" class="ghost" onClick={onDismiss} aria-label="Close message">
          Close
        </button>
      </div>
    </div>
  );
}
