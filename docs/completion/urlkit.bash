# bash completion for urlkit: written by "urlkit help --completion bash" from
# the command line's own flag definitions (cmd/urlkit/completion.go).
# Install: urlkit help --completion bash > /etc/bash_completion.d/urlkit
# (or source it from ~/.bashrc).
_urlkit() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    COMPREPLY=()
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W 'parse check canon equal edit resolve relative escape unescape plan get serve index extract help --help --version' -- "$cur"))
        return
    fi
    local flags="" values="" files="" args=""
    case ${COMP_WORDS[1]} in
    help | -h | -help | --help)
        if ((COMP_CWORD == 2)); then
            COMPREPLY=($(compgen -W 'parse check canon equal edit resolve relative escape unescape plan get serve index extract --man --completion' -- "$cur"))
        elif [[ $prev == --completion ]]; then
            COMPREPLY=($(compgen -W 'bash zsh fish' -- "$cur"))
        fi
        return
        ;;
    parse)
        flags='--format --json --lenient --max-line --url-file --workers --help'
        values='--format --max-line --url-file --workers'
        files='--url-file'
        ;;
    check)
        flags='--json --lenient --max-line --url-file --workers --help'
        values='--max-line --url-file --workers'
        files='--url-file'
        ;;
    canon)
        flags='--json --lenient --max-line --url-file --workers --help'
        values='--max-line --url-file --workers'
        files='--url-file'
        ;;
    equal)
        flags='--json --lenient --max-line --url-file --workers --help'
        values='--max-line --url-file --workers'
        files='--url-file'
        ;;
    edit)
        flags='--append --canonical --delete --format --json --keep --lenient --max-line --mode --redirect --set --sort-search --url-file --workers --help'
        values='--append --delete --format --keep --max-line --mode --redirect --set --url-file --workers'
        files='--url-file'
        case $prev in
        --mode) COMPREPLY=($(compgen -W 'rfc1630 libwww rfc3986 rfc1808' -- "$cur")); return ;;
        esac
        ;;
    resolve)
        flags='--json --lenient --max-line --mode --strict --url-file --workers --help'
        values='--max-line --mode --url-file --workers'
        files='--url-file'
        case $prev in
        --mode) COMPREPLY=($(compgen -W 'rfc1630 libwww rfc3986 rfc1808' -- "$cur")); return ;;
        esac
        ;;
    relative)
        flags='--json --lenient --max-line --mode --strict --url-file --workers --help'
        values='--max-line --mode --url-file --workers'
        files='--url-file'
        case $prev in
        --mode) COMPREPLY=($(compgen -W 'rfc1630 libwww rfc3986 rfc1808' -- "$cur")); return ;;
        esac
        ;;
    escape)
        flags='--json --max-line --set --url-file --workers --help'
        values='--max-line --set --url-file --workers'
        files='--url-file'
        ;;
    unescape)
        flags='--json --max-line --search --url-file --workers --help'
        values='--max-line --url-file --workers'
        files='--url-file'
        ;;
    plan)
        flags='--compressed --email --ftp-details -I --head --json --lenient --max-line --nntp-server --url-file --workers --help'
        values='--email --max-line --nntp-server --url-file --workers'
        files='--url-file'
        ;;
    get)
        flags='-L -O --allow-private-follow --any-server --compressed --connect-timeout --continue --depth --email --exec --from --ftp-details -I --head -i --keep-partial --lenient --location --max-bytes --max-items --max-line --max-redirs --max-reply --max-size --max-time --nntp-server --no-progress -o --progress --proxy -r --raw --send -s --silent --speed-limit --speed-time --subject --timeout --url-file -v --wait --warc --help'
        values='--connect-timeout --depth --email --from --max-bytes --max-items --max-line --max-redirs --max-reply --max-size --max-time --nntp-server -o --proxy --send --speed-limit --speed-time --subject --timeout --url-file --wait --warc'
        files='-o --url-file --warc'
        ;;
    serve)
        flags='--allow --allow-private --connect-timeout --drain-timeout --email --ftp-idle --ftp-idle-timeout --header-timeout --host --idle-timeout --listen --log --log-json --max-conns --max-conns-per-client --max-page-bytes --max-page-items --max-size --max-upstream --max-upstream-per-client --max-upstream-per-target --metrics --nntp-server --quiet --record --record-size --replay --timeout --help'
        values='--allow --connect-timeout --drain-timeout --email --ftp-idle --ftp-idle-timeout --header-timeout --host --idle-timeout --listen --log --log-json --max-conns --max-conns-per-client --max-page-bytes --max-page-items --max-size --max-upstream --max-upstream-per-client --max-upstream-per-target --metrics --nntp-server --record --record-size --timeout'
        files='--log --log-json'
        ;;
    index)
        flags='-o --help'
        values='-o'
        files='-o'
        ;;
    extract)
        flags='--json --lenient --verbose --help'
        args=files
        ;;
    *)
        return
        ;;
    esac
    if [[ " $values " == *" $prev "* ]]; then
        if [[ " $files " == *" $prev "* ]]; then
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    elif [[ $args == files ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _urlkit urlkit
