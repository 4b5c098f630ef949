/** The environment variable that marks every process an exec starts. */
export const execMarkerVariable = 'AGENTDESK_EXEC_ID';

/**
 * Every exec runs with `AGENTDESK_EXEC_ID=<id>` in its environment, which its children, background
 * jobs and grandchildren inherit; and the engine makes each exec's first process a session leader.
 * "The process tree of this exec" is every process carrying the marker, plus every process in a
 * session such a process leads or belongs to (a child that cleared its environment but stayed in
 * the session). Only a process that both calls `setsid` and clears its environment escapes; the
 * container's limits and the idle reaper bound it.
 *
 * The killer uses shell builtins only (read, set, case, kill): it forks nothing, so it still works
 * when a fork bomb holds every pid the container may have. Three passes catch processes forked
 * while the first pass ran.
 */
export const killExecTreeScript = `
marker="${execMarkerVariable}=$1"
sessions=" "
for dir in /proc/[0-9]*; do
  pid=\${dir#/proc/}
  [ "$pid" = "$$" ] && continue
  found=""
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in *"$marker"*) found=1; break ;; esac
  done 2>/dev/null < "$dir/environ"
  [ -n "$found" ] || continue
  kill -KILL "$pid" 2>/dev/null
  stat=""
  read -r stat 2>/dev/null < "$dir/stat" || continue
  set -- \${stat##*) }
  [ "$4" -gt 1 ] 2>/dev/null && sessions="$sessions$4 "
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
