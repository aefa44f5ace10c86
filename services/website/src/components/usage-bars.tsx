import { formatGb, type Usage } from '../api';

function Bar(props: { label: string; used: number; allowance: number; text: string }) {
  const percent = props.allowance > 0 ? Math.min(100, Math.round((props.used / props.allowance) * 100)) : 100;
  return (
    <div class="usage">
      <div class="usage-head">
        <span>{props.label}</span>
        <span>{props.text}</span>
      </div>
      <meter
        min={0}
        max={Math.max(props.allowance, 1)}
        value={Math.min(props.used, Math.max(props.allowance, 1))}
        low={props.allowance * 0.7}
        high={props.allowance * 0.9}
        optimum={0}
        aria-label={`${props.label}: ${props.text}, ${percent}% used`}
      />
    </div>
  );
}

/** The plan's three counters, as the spec shows them: GB monthly, GB additional, conversions today. */
export function UsageBars(props: { usage: Usage }) {
  const u = props.usage;
  return (
    <div class="usage-list" data-testid="usage">
      <Bar
        label={`Monthly (${u.month})`}
        used={u.monthly_used_bytes}
        allowance={u.monthly_allowance_bytes}
        text={`${formatGb(u.monthly_used_bytes)} of ${formatGb(u.monthly_allowance_bytes)}`}
      />
      <Bar
        label="Additional"
        used={u.additional_used_bytes}
        allowance={u.additional_allowance_bytes}
        text={`${formatGb(u.additional_used_bytes)} of ${formatGb(u.additional_allowance_bytes)}`}
      />
      <Bar
        label={`Conversions today (${u.day})`}
        used={u.daily_conversions_used}
        allowance={u.daily_conversions_allowance}
        text={`${u.daily_conversions_used} of ${u.daily_conversions_allowance}`}
      />
    </div>
  );
}
