/** What went wrong, announced to screen readers; nothing when all is well. */
export function Problem(props: { text: string }) {
  return props.text ? (
    <p class="error" role="alert">
      {props.text}
    </p>
  ) : null;
}
