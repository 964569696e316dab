//! The UI's own strings in English and Chinese. Server strings arrive already localized.

use leptos::prelude::*;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Locale {
    En,
    Zh,
}

impl Locale {
    /// The WebView's language, English unless it is Chinese.
    pub fn detect() -> Self {
        let lang = web_sys::window()
            .and_then(|w| w.navigator().language())
            .unwrap_or_default();
        if lang.starts_with("zh") {
            Locale::Zh
        } else {
            Locale::En
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Zh => "zh",
        }
    }
}

/// Looks up a UI string in the current locale.
pub fn t(key: &'static str) -> impl Fn() -> &'static str + Copy {
    let locale = use_context::<RwSignal<Locale>>().expect("locale context");
    move || tr(locale.get(), key)
}

pub fn tr(locale: Locale, key: &'static str) -> &'static str {
    let (en, zh) = match key {
        "app.tagline" => (
            "A table for stories, told together.",
            "共同讲述故事的桌面。",
        ),
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
        "dice.vs" => ("vs", "对"),
        "input.not_delivered" => ("not delivered: the connection dropped before the table got it", "未送达：连接在牌桌收到前中断"),
        "input.retry" => ("Retry", "重试"),
        "input.edit" => ("Edit", "编辑"),
        "char.title" => ("Create a character", "创建角色"),
        "char.system" => ("Rule system", "规则系统"),
        "char.name" => ("Their name", "角色名字"),
        "char.create" => ("Create", "创建"),
        "char.import" => ("Import from an installed pack…", "从已安装的扩展包导入…"),
        "char.no_cards" => ("No installed pack ships a card you can import.", "已安装的扩展包中没有可导入的卡片。"),
        "char.world" => ("world · keeper", "世界 · 守密人"),
        "char.do_import" => ("Import", "导入"),
        "story.search" => ("Search the story", "搜索故事"),
        "story.matches" => ("lines match", "行匹配"),
        "story.clear" => ("Clear", "清除"),
        "story.save" => ("Save", "保存"),
        "story.markdown" => ("Save as Markdown…", "保存为 Markdown…"),
        "story.html" => ("Save as web page…", "保存为网页…"),
        "story.saved" => ("Saved to", "已保存到"),
        "dice.tie" => ("tie", "平局"),
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
        "about.studio" => ("Studio", "Studio"),
        "about.protocol" => ("protocol", "协议"),
        "about.offline" => ("backend not reachable", "无法连接后端"),
        "locale.switch" => ("中文", "English"),
        "theme.light" => ("Parchment theme", "羊皮纸主题"),
        "theme.dark" => ("Lamplit theme", "灯火主题"),
        "theme.contrast" => ("High contrast", "高对比度"),
        "prefs.logs" => ("Log folder", "日志文件夹"),
        "prefs.notify_on" => ("Notifications on: the Keeper's turn, letters and title cards while Studio is in the background (click to turn off)", "通知已开启：Studio 在后台时，守密人回合结束、信件与标题卡会通知你（点击关闭）"),
        "prefs.notify_off" => ("Notifications off (click to turn on)", "通知已关闭（点击开启）"),
        "notify.turn" => ("The Keeper has finished", "守密人已说完"),
        "notify.turn_body" => ("Your move.", "轮到你了。"),
        "notify.letter" => ("A letter arrived", "收到一封信"),
        "status.connecting" => ("Connecting…", "连接中…"),
        "status.online" => ("Online", "在线"),
        "status.reconnecting" => ("Reconnecting", "重新连接"),
        "status.room" => ("Room", "房间"),
        "status.drift" => (
            "The table speaks a different minor version; some features may differ.",
            "牌桌协议的小版本不同，部分功能可能不一致。",
        ),
        "status.audio" => ("Playing at the table", "牌桌正在播放"),
        "status.demo" => ("Demo table", "演示牌桌"),
        "status.leave" => ("Leave", "离开"),
        "sound.master" => ("All sound", "全部声音"),
        "sound.bgm" => ("Music", "音乐"),
        "sound.ambience" => ("Ambience", "环境音"),
        "sound.sfx" => ("Effects", "音效"),
        "sound.mute" => ("Mute", "静音"),
        "sound.unmute" => ("Unmute", "取消静音"),
        "play.empty" => (
            "The table is quiet. Say something to begin.",
            "牌桌很安静。说点什么开始吧。",
        ),
        "turn.busy" => ("is weaving the tale…", "正在编织故事…"),
        "turn.round" => ("round", "轮"),
        "turn.reading" => ("reading", "阅读中"),
        "turn.dice" => ("rolling dice", "掷骰中"),
        "turn.cast" => ("casting", "施法中"),
        "turn.bookkeeping" => ("keeping the books", "整理记录中"),
        "sidebar.keeper_only" => ("keeper only", "仅守密人可见"),
        "input.placeholder" => (
            "What do you do? (Enter sends, Shift+Enter for a new line)",
            "你要做什么？（回车发送，Shift+回车换行）",
        ),
        "input.send" => ("Send", "发送"),
        "input.sending" => ("sending…", "发送中…"),
        "input.timeout" => (
            "The table did not answer; try again.",
            "牌桌没有回应，请重试。",
        ),
        "input.connecting" => ("Connecting to the table…", "正在连接牌桌…"),
        "input.reconnecting" => (
            "Reconnecting — your words will wait until the table is back.",
            "重新连接中——牌桌恢复后再发送。",
        ),
        "upload.share" => (
            "Share a picture or a sound with the table",
            "与牌桌分享图片或声音",
        ),
        "upload.done" => ("shared", "已分享"),
        "gallery.title" => ("The room's pictures and sounds", "房间的图片与声音"),
        "gallery.sounds" => ("Sounds", "声音"),
        "gallery.listen" => ("▶ Listen", "▶ 试听"),
        "gallery.stop" => ("■ Stop", "■ 停止"),
        "gallery.close" => ("Close", "关闭"),
        "gallery.fit" => ("Fit", "适应窗口"),
        "gallery.actual" => ("1:1", "原始大小"),
        "gallery.avatar" => ("Use as my avatar", "用作我的头像"),
        "gallery.all" => ("All media ({n} pictures)", "全部媒体（{n} 张图片）"),
        "upload.cancel" => ("Cancel", "取消"),
        "upload.dismiss" => ("Dismiss", "关闭"),
        "upload.off" => (
            "The keeper has turned off sharing pictures and sounds.",
            "主持人已关闭图片和声音分享。",
        ),
        "upload.drop" => (
            "Or drop pictures and sounds onto the window.",
            "也可以把图片和声音拖到窗口上。",
        ),
        "side.shared" => ("Shared at the table", "牌桌上的分享"),
        "side.party" => ("Party", "队伍"),
        "side.initiative" => ("Initiative", "先攻"),
        "side.variables" => ("Story", "剧情变量"),
        "side.pregens" => ("Characters to claim", "可认领角色"),
        "side.claim" => ("Claim", "认领"),
        "side.claimed" => ("Claimed", "已认领"),
        "side.usage" => ("Keeper's context", "主持人上下文"),
        "side.presence" => ("At the table", "在座"),
        _ => crate::bench::pair(key),
    };
    match locale {
        Locale::En => en,
        Locale::Zh => zh,
    }
}
