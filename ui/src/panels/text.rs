//! The panels' own strings (the host's chrome around a pack's panels), English and Chinese,
//! looked up through `i18n::tr`. A pack's own words arrive localized in its manifest.

/// English and Chinese for a key this table owns; `None` leaves it to the other tables.
pub fn strings(key: &str) -> Option<(&'static str, &'static str)> {
    Some(match key {
            "panels.menu" => ("Panels", "面板"),
            "panels.close" => ("Close", "关闭"),
            "panels.collapse" => ("Collapse", "折叠"),
            "panels.expand" => ("Expand", "展开"),
            "panels.failed" => ("This panel could not be shown.", "此面板无法显示。"),
            "panels.no_start" => ("This panel could not start.", "此面板无法启动。"),
            "panels.retry" => ("Retry", "重试"),
            "panels.loading" => ("Loading panel…", "正在加载面板…"),
            "panels.blocks_only" => ("Blocks only", "仅显示区块"),
            "panels.run_code" => ("Run panel code", "运行面板代码"),
            "panels.run_question" => (
                "Run them? Until you choose, each panel shows its plain blocks.",
                "要运行它们吗？在你选择之前，每个面板只显示其普通区块。",
            ),
            "panels.code_switch" => ("Run this room's panel code", "运行此房间的面板代码"),
            "panels.crashed" => ("This panel stopped with an error.", "此面板因错误而停止。"),
            "panels.stalled" => (
                "A panel page stopped the window from answering",
                "一个面板页面使窗口停止响应",
            ),
            "panels.stalled_after" => (
                "Studio restarted the view and turned this room's panel code off. You can turn it back on from the Panels menu.",
                "Studio 已重新载入界面，并关闭了此房间的面板代码。你可以在“面板”菜单中重新开启。",
            ),
            "panels.none" => ("No panels", "没有面板"),
            "panels.dismiss" => ("Dismiss", "关闭"),
            "panels.wants_to_send" => ("wants to send:", "想要发送："),
            "panels.send" => ("Send", "发送"),
            "panels.is_command" => (
                "This is a command: it runs at the table with your rights.",
                "这是一条命令：它会以你的权限在牌桌上执行。",
            ),
            // `{count}` panel pages, `{size}` their size: one key per plural form.
            "panels.notice_runs_one" => (
                "This room's packs run {count} panel page of their own ({size}), sandboxed with no network.",
                "此房间的扩展包自带 {count} 个面板页面（{size}），在无网络的沙箱中运行。",
            ),
            "panels.notice_runs_many" => (
                "This room's packs run {count} panel pages of their own ({size}), sandboxed with no network.",
                "此房间的扩展包自带 {count} 个面板页面（{size}），在无网络的沙箱中运行。",
            ),
            "panels.notice_ask_one" => (
                "This room's packs bring {count} panel page with code of their own ({size}). They would run sandboxed, with no network.",
                "此房间的扩展包带有 {count} 个含自有代码的面板页面（{size}），将在无网络的沙箱中运行。",
            ),
            "panels.notice_ask_many" => (
                "This room's packs bring {count} panel pages with code of their own ({size}). They would run sandboxed, with no network.",
                "此房间的扩展包带有 {count} 个含自有代码的面板页面（{size}），将在无网络的沙箱中运行。",
            ),
            // `{n}` messages a panel `{who}` tried to send.
            "panels.dropped_one" => (
                "Blocked {n} message {who} tried to send without you.",
                "已拦截 {who} 未经你同意尝试发送的 {n} 条消息。",
            ),
            "panels.dropped_many" => (
                "Blocked {n} messages {who} tried to send without you.",
                "已拦截 {who} 未经你同意尝试发送的 {n} 条消息。",
            ),
            _ => return None,
    })
}
