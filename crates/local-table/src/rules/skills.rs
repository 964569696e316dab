//! The KP skill catalog `admin_list_skills` reports: the engine's shipped skills, with
//! their en/zh display texts copied from the engine capture (ids in the engine's order).

use serde_json::{json, Value};

pub struct Skill {
    pub id: &'static str,
    pub rating: &'static str,
    /// (name, description)
    pub en: (&'static str, &'static str),
    pub zh: (&'static str, &'static str),
}

pub const SKILLS: &[Skill] = &[
    Skill {
        id: "image-gen",
        rating: "",
        en: ("Image generation", "Enable to let the Keeper generate occasional player-visible scene, portrait, or item handouts through the configured external image provider."),
        zh: ("图像生成", "开启后，Keeper 可通过已配置的外部图像服务，偶尔生成玩家可见的场景、肖像或物品插图。"),
    },
    Skill {
        id: "mature-mode",
        rating: "explicit",
        en: ("Mature mode", "Enable for a private, invite-only adult/romance campaign whose players have explicitly opted in. Lifts the Keeper's self-censorship for explicit romance/intimacy scenes and the room's output word-filter while it is on."),
        zh: ("成熟模式", "为仅限邀请的私密成人/恋爱战役开启。开启期间解除 Keeper 对露骨浪漫/亲密场景的自我审查，并放宽房间输出的词汇过滤。"),
    },
    Skill {
        id: "module-forge",
        rating: "",
        en: ("Module forge", "Enable to let the Keeper author a brand-new module/scenario document from a natural-language description (or a keeper-provided premise), installing it straight into this room's module knowledge pool. Turn this on only when you want the Keeper itself to generate and install a new module at your request."),
        zh: ("模组锻造", "开启后，Keeper 可根据自然语言描述（或守秘人提供的设定前提）创作一份全新的模组/剧本文档，并直接安装到本房间的模组知识库中。"),
    },
    Skill {
        id: "romance-relationships",
        rating: "mature",
        en: ("Romance & relationships", "Enable for a campaign centered on romance/intimacy: tracks attraction and tension, resolves seduction and reading feelings as social checks, and prompts consent beats before a scene turns intimate."),
        zh: ("恋爱与关系", "为以浪漫/亲密为核心的战役开启：追踪吸引与张力，将诱惑与读心作为社交检定来判定，并在场景转向亲密前提示同意确认。"),
    },
    Skill {
        id: "rule-forge",
        rating: "",
        en: ("Rule forge", "Enable to let the Keeper author a brand-new TTRPG rule system (a rulepacks/<id>.yaml data pack) from a natural-language description of its sheet and checks. Turn this on only when you want the Keeper itself to generate and install a new rule system at your request."),
        zh: ("规则锻造", "开启后，Keeper 可根据自然语言描述的属性表与检定方式，创作全新的 TTRPG 规则系统（rulepacks/<id>.yaml 数据包）。"),
    },
    Skill {
        id: "skill-forge",
        rating: "",
        en: ("Skill forge", "Enable to let the Keeper author a brand-new KP skill from a natural-language description of a desired play-style -- the \"skill that creates skills.\" Turn this on only when you want the Keeper itself to generate and install new skills at your request."),
        zh: ("技能锻造", "开启后，Keeper 可根据自然语言描述的目标玩法风格，创作全新的 KP 技能——即“创造技能的技能”。"),
    },
    Skill {
        id: "svg-mapmaker",
        rating: "",
        en: ("SVG mapmaker", "Enable to let the Keeper draw simple player-visible SVG handout maps: location maps, room hierarchy diagrams, clue-route sketches, and relationship/area structures with labels."),
        zh: ("SVG 地图制作", "开启后，Keeper 可绘制简单的玩家可见 SVG 地图：地点地图、房间层级图、线索路线草图，以及带标签的关系/区域结构图。"),
    },
];

pub fn exists(id: &str) -> bool {
    SKILLS.iter().any(|s| s.id == id)
}

/// The `admin_skills` frame in `locale` ("zh" or anything else for English), with
/// `enabled` taken from the caller's room.
pub fn frame(locale: &str, enabled: &[String]) -> Value {
    let list: Vec<Value> = SKILLS
        .iter()
        .map(|s| {
            let (name, description) = if locale.starts_with("zh") { s.zh } else { s.en };
            json!({"id": s.id, "name": name, "description": description,
                   "content_rating": s.rating, "enabled": enabled.iter().any(|e| e == s.id)})
        })
        .collect();
    json!({"type": "admin_skills", "skills": list})
}
