#!/bin/sh
# Content Desk's package removal (the .deb's postrm, the .rpm's %postun). Removing the package never
# touches what the people who used it made: each one's data folder and API keys stay. A purge (.deb) or
# the last erase (.rpm, "$1" = 0) says where they are, for whoever wants them gone too.
set -e
case "$1" in
  purge|0)
    cat <<'MSG'
Content Desk was removed. Each user's own data was left in place:
  - the data folder: ~/.local/share/ai.contentdesk.app (drafts, settings, the practice space)
  - API keys: the login keyring (Secret Service), service "contentdesk"
    (list them with: secret-tool search service contentdesk)
Delete them yourself if you no longer want them; the package never does.
MSG
    ;;
esac
exit 0
