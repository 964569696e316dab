//! The connect screen's strings, English and Chinese (looked up through `i18n::tr`).

/// English and Chinese for a key this table owns; `None` leaves it to the other tables.
pub fn strings(key: &str) -> Option<(&'static str, &'static str)> {
    Some(match key {
            "connect.title" => ("Join a table", "加入牌桌"),
            "connect.ticket" => ("Ticket", "邀请票据"),
            "connect.ticket.hint" => (
                "Paste the ticket your keeper shared",
                "粘贴主持人分享的票据",
            ),
            "connect.key" => ("Invite key", "邀请密钥"),
            "connect.key.hint" => ("The key that admits you to the room", "让你进入房间的密钥"),
            "connect.name" => ("Name (optional)", "名字（可选）"),
            "connect.name.hint" => ("How the table will call you", "大家如何称呼你"),
            "connect.join" => ("Join table", "加入"),
            "connect.first.what" => (
                "A ticket is a table's address; an invite key lets you in. Your keeper makes both on their Loreweaver server (Keeper → Rooms & invites) and can send them as one block: paste it into Ticket.",
                "票据是牌桌的地址，邀请密钥让你入座。主持人在其 Loreweaver 服务器上生成这两者（守密人 → 房间与邀请），可作为一段文字发给你：粘贴到“邀请票据”即可。",
            ),
            "connect.first.demo" => (
                "New here? The demo table runs on this computer: a short scene to learn the table with.",
                "初次使用？演示牌桌在本机运行：一段用来熟悉牌桌的小场景。",
            ),
            "connect.remember" => ("Remember this table (and its key)", "记住这张牌桌（及其密钥）"),
            "connect.remember.file" => (
                "No system keyring answers on this machine, so the key would be kept in a file only you can read:",
                "本机没有可用的系统密钥环，密钥将保存在只有你能读取的文件中：",
            ),
            "connect.demo" => ("Play the demo table", "试玩演示牌桌"),
            "connect.saved" => ("Your tables", "你的牌桌"),
            "connect.forget" => ("Forget this table and its key", "忘记此牌桌及其密钥"),
            "connect.key_refused" => ("This key no longer works:", "此密钥已失效："),
            "connect.panel_code" => ("Panel code:", "面板代码："),
            "connect.code_ask" => ("Ask me", "询问我"),
            "connect.code_run" => ("Run", "运行"),
            "connect.code_blocks" => ("Blocks only", "仅显示区块"),
            "connect.or" => ("or", "或"),
            "connect.need_ticket" => ("Paste a ticket first.", "请先粘贴票据。"),
            "connect.need_key" => ("Enter your invite key.", "请输入邀请密钥。"),
            "connect.joining" => ("Joining…", "正在加入…"),
            _ => return None,
    })
}
