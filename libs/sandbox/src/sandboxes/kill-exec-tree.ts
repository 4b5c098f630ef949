/**
 * Every exec runs as `sh -c COMMAND agentdesk-exec-<id>`: the marker sits in its command line, and
 * the engine makes each exec's first process a session leader, so "the process tree of this exec"
 * is every process whose session id is that of a process carrying the marker (this catches
 * children, grandchildren and background jobs; a process that calls `setsid` itself escapes and is
 * left to the container's limits and the idle reaper).
 *
 * The killer uses shell builtins only (read, set, case, kill): it forks nothing, so it still works
 * when a fork bomb holds every pid the container may have. Three passes catch processes forked
 * while the first pass ran.
 */
export const killExecTreeScript = `
marker="agentdesk-exec-$1"
sessions=" "
for dir in /proc/[0-9]*; do
  pid=\${dir#/proc/}
  [ "$pid" = "$$" ] && continue
  cmdline=""
  read -r cmdline 2>/dev/null < "$dir/cmdline"
  case "$cmdline" in
    *"$marker"*)
      stat=""
      read -r stat 2>/dev/null < "$dir/stat" || continue
      set -- \${stat##*) }
      [ "$4" -gt 1 ] 2>/dev/null && sessions="$sessions$4 "
      ;;
  esac
done
[ "$sessions" = " " ] && exit 0
for pass in 1 2 3; do
  for dir in /proc/[0-9]*; do
    pid=\${dir#/proc/}
    [ "$pid" = "$$" ] && continue
    stat=""
    read -r stat 2>/dev/null < "$dir/stat" || continue
    set -- \${stat##*) }
    case "$sessions" in *" $4 "*) kill -KILL "$pid" 2>/dev/null ;; esac
  done
done
exit 0
`;

export function execMarker(execId: string): string {
  return `agentdesk-exec-${execId}`;
}
